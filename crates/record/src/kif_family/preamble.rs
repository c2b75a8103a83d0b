//! The headers and start position that KIF and KI2 write before the moves.

use std::fmt::Write as _;

use shogi_core::Handicap;

use super::side_name;
use crate::encoding::Encoding;
use crate::record::Record;

/// Whether `rec` starts from a standard handicap other than the even game
/// (its sides are then 下手 and 上手).
pub(crate) fn is_handicapped(rec: &Record) -> bool {
    !matches!(rec.handicap(), Some(Handicap::Even) | None)
}

/// Writes the headers and start position shared by KIF and KI2; `format` is
/// the name on the first line (`KIF`, `KI2`), which also declares `enc`.
pub(crate) fn write(out: &mut String, rec: &Record, format: &str, enc: Encoding) {
    let enc_name = match enc {
        Encoding::Utf8 => "UTF-8",
        Encoding::ShiftJis => "Shift_JIS",
    };
    let _ = writeln!(out, "#{format} version=2.0 encoding={enc_name}");
    let h = &rec.headers;
    for (k, v) in [
        ("開始日時", &h.start_time),
        ("終了日時", &h.end_time),
        ("棋戦", &h.event),
        ("場所", &h.site),
    ] {
        if let Some(v) = v {
            let _ = writeln!(out, "{k}：{v}");
        }
    }
    if let Some(tc) = h.time_control {
        let _ = writeln!(out, "持ち時間：{}", tc.to_plus());
    }
    let handicap = rec.handicap();
    match handicap {
        // The normal start needs no line unless the record named it.
        Some(Handicap::Even) if h.handicap.is_none() => {}
        Some(hc) => {
            let _ = writeln!(out, "手合割：{}", hc.kif_name());
        }
        None => out.push_str(&crate::bod::write(&rec.start)),
    }
    let handicapped = is_handicapped(rec);
    if let Some(v) = &h.sente {
        let _ = writeln!(
            out,
            "{}：{v}",
            side_name(shogi_core::Color::Sente, handicapped)
        );
    }
    if let Some(v) = &h.gote {
        let _ = writeln!(
            out,
            "{}：{v}",
            side_name(shogi_core::Color::Gote, handicapped)
        );
    }
    for (k, v) in &h.other {
        if k == "手合割" && handicap.is_some() {
            continue;
        }
        let _ = writeln!(out, "{k}：{v}");
    }
    for c in &rec.start_comments {
        let _ = writeln!(out, "*{c}");
    }
}
