//! The Berger tables against FIDE's published tables (tests/data/berger.txt,
//! transcribed from Handbook C.05 Annex 1).

use shogi_tournament::berger;

/// One published table: the field size and each round's pairs.
type Table = (usize, Vec<Vec<(usize, usize)>>);

/// Every published table.
fn published() -> Vec<Table> {
    let text = include_str!("data/berger.txt");
    let mut tables: Vec<Table> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(n) = line.strip_prefix("players ") {
            tables.push((n.parse().unwrap(), Vec::new()));
            continue;
        }
        let (round, pairs) = line.split_once(':').unwrap();
        let (_, rounds) = tables.last_mut().unwrap();
        assert_eq!(round.parse::<usize>().unwrap(), rounds.len() + 1);
        rounds.push(
            pairs
                .split(',')
                .map(|p| {
                    let (a, b) = p.trim().split_once('-').unwrap();
                    (a.parse().unwrap(), b.parse().unwrap())
                })
                .collect(),
        );
    }
    tables
}

#[test]
fn tables_equal_fides_for_4_to_16_players() {
    let tables = published();
    assert_eq!(tables.len(), 7);
    for (n, rounds) in tables {
        assert_eq!(berger::rounds(n), rounds.len());
        for (i, pairs) in rounds.iter().enumerate() {
            assert_eq!(
                &berger::table(n, i + 1),
                pairs,
                "{n} players, round {}",
                i + 1
            );
        }
    }
}

#[test]
fn odd_fields_drop_the_highest_number_as_the_bye() {
    for (n, rounds) in published() {
        let odd = n - 1;
        assert_eq!(berger::rounds(odd), rounds.len());
        for (i, pairs) in rounds.iter().enumerate() {
            let expected: Vec<_> = pairs
                .iter()
                .copied()
                .filter(|&(a, b)| a != n && b != n)
                .collect();
            assert_eq!(
                berger::table(odd, i + 1),
                expected,
                "{odd} players, round {}",
                i + 1
            );
        }
    }
}
