//! Transliteration against the examples of the published tables: the
//! Ukrainian national system (KMU resolution 55 of 2010, whose table gives
//! an example word per letter) and ICAO Doc 9303 as Russian passports use
//! it.

use shogi_tournament::translit::{latin, latin_as, Language};

#[test]
fn ukrainian_table_examples() {
    let uk = |s| latin_as(s, Language::Ukrainian);
    for (cyrillic, expected) in [
        ("Алушта", "Alushta"),
        ("Борщагівка", "Borshchahivka"),
        ("Вишгород", "Vyshhorod"),
        ("Гадяч", "Hadiach"),
        ("Згорани", "Zghorany"),
        ("Ґалаґан", "Galagan"),
        ("Дон", "Don"),
        ("Рівне", "Rivne"),
        ("Єнакієве", "Yenakiieve"),
        ("Житомир", "Zhytomyr"),
        ("Запоріжжя", "Zaporizhzhia"),
        ("Медвин", "Medvyn"),
        ("Іршава", "Irshava"),
        ("Їжакевич", "Yizhakevych"),
        ("Кадіївка", "Kadiivka"),
        ("Йосипівка", "Yosypivka"),
        ("Стрий", "Stryi"),
        ("Олексій", "Oleksii"),
        ("Київ", "Kyiv"),
        ("Миколаїв", "Mykolaiv"),
        ("Ніжин", "Nizhyn"),
        ("Харків", "Kharkiv"),
        ("Біла Церква", "Bila Tserkva"),
        ("Чернівці", "Chernivtsi"),
        ("Шостка", "Shostka"),
        ("Гоща", "Hoshcha"),
        ("Русь", "Rus"),
        ("Юрій", "Yurii"),
        ("Корюківка", "Koriukivka"),
        ("Яготин", "Yahotyn"),
        ("Ічня", "Ichnia"),
        ("Знам'янка", "Znamianka"),
        ("Розгон", "Rozghon"),
    ] {
        assert_eq!(uk(cyrillic), expected, "{cyrillic}");
    }
}

#[test]
fn russian_passport_spellings() {
    for (cyrillic, expected) in [
        ("Щербаков", "Shcherbakov"),
        ("Юрий", "Iurii"),
        ("Ксения", "Kseniia"),
        ("Наталья", "Natalia"),
        ("Артём", "Artem"),
        ("Подъячев", "Podieiachev"),
        ("Хабаров", "Khabarov"),
        ("Цветков", "Tsvetkov"),
        ("Быков", "Bykov"),
        ("Эдуард", "Eduard"),
        ("Жуков", "Zhukov"),
        ("Чайковский", "Chaikovskii"),
    ] {
        assert_eq!(latin(cyrillic), expected, "{cyrillic}");
    }
}

#[test]
fn a_ukrainian_only_letter_makes_the_whole_name_ukrainian() {
    // и is y in Ukrainian, i in Russian; г is h and g.
    assert_eq!(latin("Григорій Сковорода"), "Hryhorii Skovoroda");
    assert_eq!(latin("Григорий Сковорода"), "Grigorii Skovoroda");
}

#[test]
fn case_is_kept() {
    assert_eq!(latin("ЩЕРБАКОВ Юрий"), "SHCHERBAKOV Iurii");
    assert_eq!(latin("щербаков"), "shcherbakov");
    assert_eq!(latin("Ю"), "Iu");
    assert_eq!(latin("ЮРІЙ"), "YURII");
}

#[test]
fn latin_and_other_scripts_pass_through() {
    assert_eq!(latin("Habu Yoshiharu"), "Habu Yoshiharu");
    assert_eq!(latin("羽生 善治 はぶ"), "羽生 善治 はぶ");
    assert_eq!(latin("O'Brien Иванов"), "O'Brien Ivanov");
    assert_eq!(latin(""), "");
}

#[test]
fn a_club_name_is_spelt_as_icao_spells_it() {
    // ICAO 9303 writes ё as e: `Сёги` is `Segi`, as in a Russian passport.
    assert_eq!(latin("Сёги-клуб СПб"), "Segi-klub SPb");
    assert_eq!(latin("Фёдор Достоевский"), "Fedor Dostoevskii");
}
