//! Japanese move text: `▲７六歩`, `△同　銀`, `▲５五角打`, `▲５八金右`, `△８八角成`.
//!
//! Reading resolves the text against the legal moves of a position with the
//! JSA relative markers 右 左 直 上 引 寄 and 打 成 不成 (生 and 行 are
//! accepted as 不成 and 上). When the normal reading finds no legal move and
//! the piece is written as a promoted kind without 成 (the style of some
//! programs, `△８八馬` for a bishop promoting on 8八), the unpromoted kind
//! promoting is tried.
//!
//! Writing adds the shortest set of markers that singles the move out,
//! in the JSA order of preference: movement (上 引 寄), then 直, then 右/左,
//! then 右/左 with a movement; a drop gets 打 only when a piece on the board
//! of the same kind could also move there.
//!
//! ```
//! use shogi_core::{Move, Position};
//! use shogi_record::notation::japanese;
//! let pos = Position::startpos();
//! let m = japanese::read(&pos, None, "▲７六歩")?;
//! assert_eq!(m, "7g7f".parse::<Move>()?);
//! assert_eq!(japanese::write(&pos, "4i5h".parse()?, None), "▲５八金右");
//! assert_eq!(japanese::write(&pos, "6i5h".parse()?, None), "▲５八金左");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use shogi_core::{attacks, rules, Bitboard, Color, Move, PieceKind, Position, Square};

use crate::record::MoveProblem;

/// The relative markers of a Japanese move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each marker (右 左 上 引 寄 直 打) is written or not on its own"
)]
pub struct Markers {
    /// 右: the piece on the mover's right.
    pub right: bool,
    /// 左: the piece on the mover's left.
    pub left: bool,
    /// 直: moves straight forward.
    pub straight: bool,
    /// 上: moves forward.
    pub up: bool,
    /// 引: moves backward.
    pub down: bool,
    /// 寄: moves sideways.
    pub sideways: bool,
}

impl Markers {
    fn text(self) -> String {
        let mut s = String::new();
        for (on, c) in [
            (self.right, '右'),
            (self.left, '左'),
            (self.straight, '直'),
            (self.up, '上'),
            (self.down, '引'),
            (self.sideways, '寄'),
        ] {
            if on {
                s.push(c);
            }
        }
        s
    }
}

/// The syntax of one Japanese move, before it is resolved against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JapaneseMove {
    /// The mark `▲`/`△` if written (Sente / Gote).
    pub color: Option<Color>,
    /// The destination; `None` for `同` (the previous move's square).
    pub to: Option<Square>,
    /// The piece kind as written (before the move).
    pub kind: PieceKind,
    /// Relative markers.
    pub markers: Markers,
    /// 打 written.
    pub drop: bool,
    /// `Some(true)` for 成, `Some(false)` for 不成, `None` for neither.
    pub promote: Option<bool>,
    /// The origin square in KIF parentheses, `(77)`.
    pub from: Option<Square>,
}

#[cfg(test)]
const PIECE_NAMES: [(&str, PieceKind); 19] = [
    ("成香", PieceKind::ProLance),
    ("成桂", PieceKind::ProKnight),
    ("成銀", PieceKind::ProSilver),
    ("歩", PieceKind::Pawn),
    ("香", PieceKind::Lance),
    ("桂", PieceKind::Knight),
    ("銀", PieceKind::Silver),
    ("金", PieceKind::Gold),
    ("角", PieceKind::Bishop),
    ("飛", PieceKind::Rook),
    ("玉", PieceKind::King),
    ("王", PieceKind::King),
    ("と", PieceKind::ProPawn),
    ("杏", PieceKind::ProLance),
    ("圭", PieceKind::ProKnight),
    ("全", PieceKind::ProSilver),
    ("馬", PieceKind::Horse),
    ("龍", PieceKind::Dragon),
    ("竜", PieceKind::Dragon),
];

/// The name a move text uses for `kind` (`歩`, `成銀`, `龍`, ...).
#[must_use]
pub fn piece_name(kind: PieceKind) -> &'static str {
    [
        "歩", "香", "桂", "銀", "金", "角", "飛", "玉", "と", "成香", "成桂", "成銀", "馬", "龍",
    ][kind.index()]
}

/// Reads a piece name at the start of `s`, returning the kind and the rest.
#[must_use]
pub fn parse_piece(s: &str) -> Option<(PieceKind, &str)> {
    let (kind, len) = piece_at(s.as_bytes())?;
    Some((kind, &s[len..]))
}

/// The first character of `b` if it takes three bytes in UTF-8, as one
/// number ([`key`]), else 0 (no key). Texts here are valid UTF-8 read from
/// a character boundary: three bytes equal to a character's encoding are
/// that character, and readers compare keys rather than decode characters
/// (decoding was a fifth of reading a move).
#[inline]
fn key_at(b: &[u8]) -> u32 {
    // One load of four bytes where there are four (most places).
    if let Some(&word) = b.first_chunk::<4>() {
        return u32::from_be_bytes(word) >> 8;
    }
    match *b {
        [x, y, z] => u32::from(x) << 16 | u32::from(y) << 8 | u32::from(z),
        _ => 0,
    }
}

/// The UTF-8 encoding of `c`, a character of three bytes (U+0800 to
/// U+FFFF), as one number, first byte highest: what [`key_at`] reads.
const fn key(c: char) -> u32 {
    let c = c as u32;
    assert!(c >= 0x800 && c <= 0xFFFF, "a character of three bytes");
    (0xE0 | c >> 12) << 16 | (0x80 | (c >> 6 & 0x3F)) << 8 | (0x80 | (c & 0x3F))
}

/// A piece name at the start of `b`: its kind and length in bytes.
// Always inlined: `parse` calls it for every move, and the call (which
// `#[inline]` left in place) was a tenth of parsing one.
#[inline(always)]
fn piece_at(b: &[u8]) -> Option<(PieceKind, usize)> {
    // One match on the first character rather than 19 prefix comparisons;
    // the names of `PIECE_NAMES` (the test below keeps them equal) have
    // distinct first characters but for the three `成…`.
    const NARI: u32 = key('成');
    const FU: u32 = key('歩');
    const KYO: u32 = key('香');
    const KEI: u32 = key('桂');
    const GIN: u32 = key('銀');
    const KIN: u32 = key('金');
    const KAKU: u32 = key('角');
    const HI: u32 = key('飛');
    const GYOKU: u32 = key('玉');
    const OU: u32 = key('王');
    const TO: u32 = key('と');
    const NARIKYO: u32 = key('杏');
    const NARIKEI: u32 = key('圭');
    const NARIGIN: u32 = key('全');
    const UMA: u32 = key('馬');
    const RYU: u32 = key('龍');
    const RYU2: u32 = key('竜');
    let kind = match key_at(b) {
        NARI => {
            let kind = match key_at(b.get(3..)?) {
                KYO => PieceKind::ProLance,
                KEI => PieceKind::ProKnight,
                GIN => PieceKind::ProSilver,
                _ => return None,
            };
            return Some((kind, 6));
        }
        FU => PieceKind::Pawn,
        KYO => PieceKind::Lance,
        KEI => PieceKind::Knight,
        GIN => PieceKind::Silver,
        KIN => PieceKind::Gold,
        KAKU => PieceKind::Bishop,
        HI => PieceKind::Rook,
        GYOKU | OU => PieceKind::King,
        TO => PieceKind::ProPawn,
        NARIKYO => PieceKind::ProLance,
        NARIKEI => PieceKind::ProKnight,
        NARIGIN => PieceKind::ProSilver,
        UMA => PieceKind::Horse,
        RYU | RYU2 => PieceKind::Dragon,
        _ => return None,
    };
    Some((kind, 3))
}

/// [`digit_value`] of the first character of `b`, with its length in bytes.
// Always inlined: left a call, it was a sixth of reading a plain move.
#[inline(always)]
fn digit_at(b: &[u8]) -> Option<(u8, usize)> {
    // The keys of `KANJI_DIGITS`.
    const ONE: u32 = key(KANJI_DIGITS[0]);
    const TWO: u32 = key(KANJI_DIGITS[1]);
    const THREE: u32 = key(KANJI_DIGITS[2]);
    const FOUR: u32 = key(KANJI_DIGITS[3]);
    const FIVE: u32 = key(KANJI_DIGITS[4]);
    const SIX: u32 = key(KANJI_DIGITS[5]);
    const SEVEN: u32 = key(KANJI_DIGITS[6]);
    const EIGHT: u32 = key(KANJI_DIGITS[7]);
    const NINE: u32 = key(KANJI_DIGITS[8]);
    match *b {
        [d @ b'1'..=b'9', ..] => Some((d - b'0', 1)),
        // `１`-`９`, U+FF11 to U+FF19.
        [0xEF, 0xBC, d @ 0x91..=0x99, ..] => Some((d - 0x90, 3)),
        // One match rather than a scan of the nine keys.
        _ => Some((
            match key_at(b) {
                ONE => 1,
                TWO => 2,
                THREE => 3,
                FOUR => 4,
                FIVE => 5,
                SIX => 6,
                SEVEN => 7,
                EIGHT => 8,
                NINE => 9,
                _ => return None,
            },
            3,
        )),
    }
}

/// The end of the spaces (`' '`, `'\t'`, `'　'`) from `i` in `b`.
fn spaces_end(b: &[u8], i: usize) -> usize {
    i + b.get(i..).map_or(0, crate::scan::leading_spaces)
}

const FULL_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// A digit 1-9 written as ASCII, full-width or kanji.
#[must_use]
pub fn digit_value(c: char) -> Option<u8> {
    // One match rather than two table scans: readers ask this of every
    // character of every line (12 % of reading KIF when it scanned).
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((u32::from(c) - u32::from('１')) as u8 + 1),
        '一' => Some(1),
        '二' => Some(2),
        '三' => Some(3),
        '四' => Some(4),
        '五' => Some(5),
        '六' => Some(6),
        '七' => Some(7),
        '八' => Some(8),
        '九' => Some(9),
        _ => None,
    }
}

/// A kanji count such as `八`, `十`, `十七` (hand counts in board diagrams).
#[must_use]
pub fn kanji_count(s: &str) -> Option<u8> {
    let mut chars = s.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (None, _, _) => Some(1),
        (Some('十'), None, _) => Some(10),
        (Some('十'), Some(d), None) => digit_value(d).map(|d| 10 + d),
        (Some(d), None, _) => digit_value(d),
        _ => s.parse().ok(),
    }
}

/// The square as a move text writes it: `７六`.
#[must_use]
pub fn square_text(sq: Square) -> String {
    let f = usize::from(sq.file().number()) - 1;
    let r = usize::from(sq.rank().number()) - 1;
    format!("{}{}", FULL_DIGITS[f], KANJI_DIGITS[r])
}

fn skip_spaces(s: &str) -> &str {
    crate::scan::trim_start_spaces(s)
}

/// Reads one move at the start of `s` (after optional spaces), returning it and the rest of the text.
/// Accepts an optional leading `▲`/`△`/`☗`/`☖`, `同` with or without a following space,
/// and a KIF origin `(77)`.
#[must_use]
pub fn parse(s: &str) -> Option<(JapaneseMove, &str)> {
    if let Some(plain) = parse_plain(s) {
        return Some(plain);
    }
    parse_any(s)
}

/// [`parse`] of the commonest moves, in one pass without choices: `▲７六歩`
/// (a mark or none, a full-width file and a kanji rank, or a mark and
/// `同　`, then a piece, perhaps `成`, nothing after it but ASCII),
/// optionally with a KIF origin in ASCII digits, `７六歩(77)`. `None` for
/// anything else, which [`parse_any`] reads (the tests hold both to a
/// reading character by character).
#[inline(always)]
fn parse_plain(s: &str) -> Option<(JapaneseMove, &str)> {
    const PROMOTE: u32 = key('成');
    let b = s.as_bytes();
    let (color, i) = match *b {
        // `▲`, `△`, or a full-width digit at once.
        [0xE2, 0x96, 0xB2, ..] => (Some(Color::Sente), 3),
        [0xE2, 0x96, 0xB3, ..] => (Some(Color::Gote), 3),
        [0xEF, 0xBC, ..] => (None, 0),
        _ => return None,
    };
    let rest = b.get(i..)?;
    let to = match *rest {
        [0xEF, 0xBC, file @ 0x91..=0x99, ..] => {
            let (rank, 3) = digit_at(&rest[3..])? else {
                return None;
            };
            Some(Square::from_numbers(file - 0x90, rank)?)
        }
        // `同` and one ideographic space: the previous move's square.
        [0xE5, 0x90, 0x8C, 0xE3, 0x80, 0x80, ..] => None,
        _ => return None,
    };
    let (kind, n) = piece_at(&rest[6..])?;
    let mut end = i + 6 + n;
    let mut promote = None;
    if key_at(&b[end..]) == PROMOTE {
        promote = Some(true);
        end += 3;
    }
    let mut from = None;
    match b.get(end) {
        None => {}
        Some(b'(') => {
            let [b'(', f @ b'1'..=b'9', r @ b'1'..=b'9', b')', ..] = b[end..] else {
                return None;
            };
            from = Some(Square::from_numbers(f - b'0', r - b'0')?);
            end += 4;
        }
        Some(&x) if x < 0x80 => {}
        Some(_) => return None,
    }
    let mv = JapaneseMove {
        color,
        to,
        kind,
        markers: Markers::default(),
        drop: false,
        promote,
        from,
    };
    Some((mv, &s[end..]))
}

/// [`parse`] of any move.
fn parse_any(s: &str) -> Option<(JapaneseMove, &str)> {
    const SENTE: u32 = key('▲');
    const SENTE2: u32 = key('☗');
    const SENTE3: u32 = key('▼');
    const GOTE: u32 = key('△');
    const GOTE2: u32 = key('☖');
    const GOTE3: u32 = key('▽');
    const DOU: u32 = key('同');
    const DOU2: u32 = key('仝');
    const RIGHT: u32 = key('右');
    const LEFT: u32 = key('左');
    const STRAIGHT: u32 = key('直');
    const UP: u32 = key('上');
    const GO: u32 = key('行');
    const ENTER: u32 = key('入');
    const DOWN: u32 = key('引');
    const SIDEWAYS: u32 = key('寄');
    const DROP: u32 = key('打');
    const PROMOTE: u32 = key('成');
    const RAW: u32 = key('生');
    const NOT: u32 = key('不');
    const OPEN: u32 = key('（');
    const CLOSE: u32 = key('）');
    // Every character compared is ASCII or three bytes long; `i` always
    // stays on a character boundary.
    // A move rarely starts with spaces: its first byte is tested before
    // they are skipped.
    let s = match s.as_bytes().first() {
        Some(b' ' | b'\t' | 0xE3) => skip_spaces(s),
        _ => s,
    };
    let b = s.as_bytes();
    let mut i = 0;
    let color = match key_at(b) {
        SENTE | SENTE2 | SENTE3 => Some(Color::Sente),
        GOTE | GOTE2 | GOTE3 => Some(Color::Gote),
        _ => None,
    };
    if color.is_some() {
        i = 3;
    }
    let to = if matches!(key_at(&b[i..]), DOU | DOU2) {
        i = spaces_end(b, i + 3);
        None
    } else {
        let (f, n) = digit_at(&b[i..])?;
        i += n;
        let (r, n) = digit_at(&b[i..])?;
        i += n;
        // Some writers put 同 after the square: `２四同歩`.
        if key_at(&b[i..]) == DOU {
            i = spaces_end(b, i + 3);
        }
        Some(Square::from_numbers(f, r)?)
    };
    let (kind, n) = piece_at(&b[i..])?;
    i += n;
    let mut mv = JapaneseMove {
        color,
        to,
        kind,
        markers: Markers::default(),
        drop: false,
        promote: None,
        from: None,
    };
    // Every marker is three bytes long: an ASCII byte (a space padding the
    // move, `(`) or the end ends them without a comparison.
    while b.get(i).is_some_and(|&x| x >= 0x80) {
        match key_at(&b[i..]) {
            RIGHT => mv.markers.right = true,
            LEFT => mv.markers.left = true,
            STRAIGHT => mv.markers.straight = true,
            UP | GO | ENTER => mv.markers.up = true,
            DOWN => mv.markers.down = true,
            SIDEWAYS => mv.markers.sideways = true,
            DROP => mv.drop = true,
            PROMOTE => mv.promote = Some(true),
            RAW => mv.promote = Some(false),
            NOT => {
                if key_at(&b[i + 3..]) != PROMOTE {
                    return None;
                }
                mv.promote = Some(false);
                i += 3;
            }
            _ => break,
        }
        i += 3;
    }
    let open = match b.get(i) {
        Some(b'(') => Some(1),
        Some(&x) if x >= 0x80 && key_at(&b[i..]) == OPEN => Some(3),
        _ => None,
    };
    if let Some(n) = open {
        i += n;
        let (f, n) = digit_at(&b[i..])?;
        i += n;
        let (r, n) = digit_at(&b[i..])?;
        i += n;
        match b.get(i) {
            Some(b')') => i += 1,
            _ if key_at(&b[i..]) == CLOSE => i += 3,
            _ => return None,
        }
        mv.from = Some(Square::from_numbers(f, r)?);
    }
    Some((mv, &s[i..]))
}

fn forward(color: Color, from: Square, to: Square) -> i32 {
    let d = i32::from(from.rank().number()) - i32::from(to.rank().number());
    match color {
        Color::Sente => d,
        Color::Gote => -d,
    }
}

/// Smaller is further to the mover's right.
fn rightness(color: Color, sq: Square) -> i32 {
    let n = i32::from(sq.file().number());
    match color {
        Color::Sente => n,
        Color::Gote => -n,
    }
}

/// How many origins or moves a [`Few`] holds. The candidates of a move
/// are one drop, or pieces of one kind of the mover that reach the
/// destination: for a stepping kind at most the squares it steps from
/// (eight for the king's steps, the most), for a sliding kind at most the
/// pieces of that kind a side can have (four lances, two of the others).
const FEW: usize = 8;

/// Up to [`FEW`] items in order, without allocating: the candidates of one
/// move, computed for every move a reader reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Few<T: Copy> {
    len: usize,
    items: [T; FEW],
}

impl<T: Copy> Few<T> {
    /// An empty list (`fill` only initialises the unused slots).
    fn new(fill: T) -> Few<T> {
        Few {
            len: 0,
            items: [fill; FEW],
        }
    }

    fn one(item: T) -> Few<T> {
        Few {
            len: 1,
            items: [item; FEW],
        }
    }

    /// Appends `item`; callers never hold more than [`FEW`] (see there).
    fn push(&mut self, item: T) {
        self.items[self.len] = item;
        self.len += 1;
    }

    pub(crate) fn as_slice(&self) -> &[T] {
        &self.items[..self.len]
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

/// The origins of a move's board readings, at most [`FEW`], in order: each
/// square's index a byte of one word, so that the list is kept in
/// registers. As an array ([`Few`]) it was filled a byte at a time and then
/// copied whole, a load the processor cannot forward from several stores:
/// a stall on every move a KI2 or KIF reader read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Origins {
    bytes: u64,
    len: u32,
}

impl Origins {
    /// Appends `sq` (callers never hold more than [`FEW`], see there; a
    /// ninth square would be left out).
    #[inline]
    fn push(&mut self, sq: Square) {
        if (self.len as usize) < FEW {
            self.bytes |= (sq.index() as u64) << (8 * self.len);
            self.len += 1;
        }
    }

    pub(crate) fn len(self) -> usize {
        self.len as usize
    }

    pub(crate) fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The origin if there is only one.
    #[inline]
    fn single(self) -> Option<Square> {
        if self.len == 1 {
            Square::from_index((self.bytes & 0xFF) as usize)
        } else {
            None
        }
    }

    /// The origins in order.
    pub(crate) fn iter(self) -> impl Iterator<Item = Square> {
        (0..self.len)
            .filter_map(move |i| Square::from_index(((self.bytes >> (8 * i)) & 0xFF) as usize))
    }

    fn retain(&mut self, mut keep: impl FnMut(Square) -> bool) {
        let mut kept = Origins::default();
        for sq in self.iter() {
            if keep(sq) {
                kept.push(sq);
            }
        }
        *self = kept;
    }
}

impl FromIterator<Square> for Origins {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Origins {
        let mut out = Origins::default();
        for sq in iter {
            out.push(sq);
        }
        out
    }
}

/// The origins among `v` that the markers describe.
fn filter(mut v: Origins, to: Square, color: Color, m: Markers) -> Origins {
    if m == Markers::default() {
        return v;
    }
    if m.up {
        v.retain(|f| forward(color, f, to) > 0);
    }
    if m.down {
        v.retain(|f| forward(color, f, to) < 0);
    }
    if m.sideways {
        v.retain(|f| forward(color, f, to) == 0);
    }
    if m.straight {
        v.retain(|f| f.file() == to.file() && forward(color, f, to) > 0);
    }
    if m.right {
        if let Some(best) = v.iter().map(|f| rightness(color, f)).min() {
            v.retain(|f| rightness(color, f) == best);
        }
    }
    if m.left {
        if let Some(best) = v.iter().map(|f| rightness(color, f)).max() {
            v.retain(|f| rightness(color, f) == best);
        }
    }
    v
}

/// The origins of the legal board moves of a `kind` to `to` with this
/// promotion choice, in the order [`Position::legal_moves`] lists them
/// (unpinned pieces by square, then pinned ones). Only the pieces that
/// reach `to` are tried, each with [`Position::check_move`], which agrees
/// with the generator move for move; generating every legal move to find
/// the few that land on `to` was most of a reader's time.
fn board_candidates(pos: &Position, to: Square, kind: PieceKind, promote: bool) -> Origins {
    let us = pos.side_to_move();
    let mut out = Origins::default();
    // A piece of `us` on `from` reaches `to` exactly when the same piece of
    // the other colour on `to` would reach `from`.
    // (A stepping kind's squares are one table's entry.)
    let reach = if kind.is_slider() {
        attacks::piece(us.opponent(), kind, to, pos.occupancy())
    } else {
        attacks::step(us.opponent(), kind, to)
    } & pos.pieces(us, kind);
    if reach.is_empty() || pos.color_bb(us).contains(to) {
        // Nothing reaches `to`, or it holds a piece of ours: no move.
        return out;
    }
    let king = pos.king(us);
    if kind == PieceKind::King {
        match (reach.single(), king) {
            (Some(from), Some(k)) if from == k => {
                // The king (which promotes neither way) may step where no
                // enemy attacks it once it has left its square, as
                // `check_move` judges.
                let occ = pos.occupancy().with_toggled(k);
                if !promote && !pos.is_attacked(to, us.opponent(), &occ) {
                    out.push(from);
                }
            }
            _ => {
                // A king the position does not track (a lenient setup with
                // two): `check_move` says.
                let pinned = pos.pinned(us);
                for from in (reach & !pinned).into_iter().chain(reach & pinned) {
                    if pos.check_move(Move::Board { from, to, promote }).is_ok() {
                        out.push(from);
                    }
                }
            }
        }
        return out;
    }
    // What `check_move` still asks of a piece of ours that reaches `to`,
    // an empty or enemy square: the promotion rules, and that the king is
    // not left attacked (judged as `check_move` judges it for a piece other
    // than the king: in double check none may move, in single check the
    // move must take the checker or block its line, a pinned piece stays on
    // the line through its king). The checks are asked once, not per piece.
    if let Some(k) = king {
        let checkers = pos.checkers();
        if checkers.more_than_one() {
            return out;
        }
        if let Some(c) = checkers.first() {
            if !(attacks::between(k, c) | checkers).contains(to) {
                return out;
            }
        }
    }
    let must_promote = !kind.is_promoted() && rules::must_promote(us, kind, to);
    let promotion_ok = |from| {
        if promote {
            rules::can_promote(us, kind, from, to)
        } else {
            !must_promote
        }
    };
    // The pins (a search for enemy sliders aimed at the king, the costliest
    // part) are computed only when they can matter: pinned pieces stand on a
    // line through their king, and one that stays on its line stays legal.
    if let Some(from) = reach.single() {
        // One piece: the order of the pieces is no question.
        let stays_on_line = match king {
            Some(k) => {
                !attacks::aligned(k, from)
                    || attacks::on_line_through(k, from, to)
                    || !pos.pinned(us).contains(from)
            }
            None => true,
        };
        if promotion_ok(from) && stays_on_line {
            out.push(from);
        }
        return out;
    }
    let pinned = match king {
        Some(k) if (reach & (attacks::rook_pseudo(k) | attacks::bishop_pseudo(k))).any() => {
            pos.pinned(us)
        }
        _ => Bitboard::EMPTY,
    };
    for from in (reach & !pinned).into_iter().chain(reach & pinned) {
        let stays_on_line = match king {
            Some(k) if pinned.contains(from) => attacks::on_line_through(k, from, to),
            _ => true,
        };
        if promotion_ok(from) && stays_on_line {
            out.push(from);
        }
    }
    out
}

/// The legal readings of a move, before they are made [`Move`]s: the
/// readings of most moves are one board move, which is then made without
/// filling a list of moves.
#[derive(Clone, Copy)]
enum Readings {
    /// One move: a drop, or a move with its origin written.
    One(Move),
    /// Board moves to `to` from these origins (at least one).
    Board {
        origins: Origins,
        to: Square,
        promote: bool,
    },
}

impl Readings {
    fn len(&self) -> usize {
        match self {
            Readings::One(_) => 1,
            Readings::Board { origins, .. } => origins.len(),
        }
    }

    /// The reading if there is only one.
    fn single(&self) -> Option<Move> {
        match *self {
            Readings::One(m) => Some(m),
            Readings::Board {
                origins,
                to,
                promote,
            } => origins
                .single()
                .map(|from| Move::Board { from, to, promote }),
        }
    }

    fn moves(&self) -> Few<Move> {
        match *self {
            Readings::One(m) => Few::one(m),
            Readings::Board {
                origins,
                to,
                promote,
            } => {
                let mut moves = Few::new(Move::Board {
                    from: to,
                    to,
                    promote,
                });
                for from in origins.iter() {
                    moves.push(Move::Board { from, to, promote });
                }
                moves
            }
        }
    }
}

fn readings_kind(
    pos: &Position,
    to: Square,
    kind: PieceKind,
    promote: bool,
    jm: &JapaneseMove,
) -> Result<Readings, MoveProblem> {
    let drop = if kind.is_promoted() {
        None
    } else {
        kind.hand_kind()
    }
    .map(|k| Move::Drop { kind: k, to });
    if jm.drop {
        let m = drop.ok_or(MoveProblem::NoMatch)?;
        pos.check_move(m)?;
        return Ok(Readings::One(m));
    }
    let board = board_candidates(pos, to, kind, promote);
    if board.is_empty() {
        return match drop {
            Some(m) if !promote && pos.is_legal(m) => Ok(Readings::One(m)),
            _ => Err(MoveProblem::NoMatch),
        };
    }
    let origins = if jm.markers == Markers::default() {
        board
    } else {
        filter(board, to, pos.side_to_move(), jm.markers)
    };
    if origins.is_empty() {
        return Err(MoveProblem::NoMatch);
    }
    Ok(Readings::Board {
        origins,
        to,
        promote,
    })
}

/// The readings of [`candidates`].
fn readings(
    pos: &Position,
    last_to: Option<Square>,
    jm: &JapaneseMove,
) -> Result<Readings, MoveProblem> {
    let to = match jm.to {
        Some(s) => s,
        None => last_to.ok_or(MoveProblem::NoPreviousMove)?,
    };
    if let Some(from) = jm.from {
        let m = Move::Board {
            from,
            to,
            promote: jm.promote == Some(true),
        };
        pos.check_move(m)?;
        return Ok(Readings::One(m));
    }
    let promote = jm.promote == Some(true);
    match readings_kind(pos, to, jm.kind, promote, jm) {
        Err(MoveProblem::NoMatch) if jm.kind.is_promoted() && jm.promote.is_none() && !jm.drop => {
            readings_kind(pos, to, jm.kind.unpromote(), true, jm).map_err(|_| MoveProblem::NoMatch)
        }
        r => r,
    }
}

/// [`candidates`] without allocating.
pub(crate) fn candidates_few(
    pos: &Position,
    last_to: Option<Square>,
    jm: &JapaneseMove,
) -> Result<Few<Move>, MoveProblem> {
    readings(pos, last_to, jm).map(|r| r.moves())
}

/// The move if the parsed move has one reading (`None` if several): the
/// question asked of most moves, answered without a list of moves.
///
/// # Errors
/// Why no legal move fits, as [`candidates`] says.
pub(crate) fn single_reading(
    pos: &Position,
    last_to: Option<Square>,
    jm: &JapaneseMove,
) -> Result<Option<Move>, MoveProblem> {
    readings(pos, last_to, jm).map(|r| r.single())
}

/// Every legal move in `pos` that the parsed move can mean (more than one when it is ambiguous).
///
/// # Errors
/// Why no legal move fits.
pub fn candidates(
    pos: &Position,
    last_to: Option<Square>,
    jm: &JapaneseMove,
) -> Result<Vec<Move>, MoveProblem> {
    candidates_few(pos, last_to, jm).map(|c| c.as_slice().to_vec())
}

/// Resolves a parsed move in `pos`; `last_to` is where the previous move landed (for `同`).
///
/// # Errors
/// Why no single legal move fits.
pub fn resolve(
    pos: &Position,
    last_to: Option<Square>,
    jm: &JapaneseMove,
) -> Result<Move, MoveProblem> {
    let r = readings(pos, last_to, jm)?;
    r.single().ok_or(MoveProblem::Ambiguous(r.len()))
}

/// Reads one move text in `pos`.
///
/// # Errors
/// [`MoveProblem::NoMatch`] also when the text is not a move at all.
pub fn read(pos: &Position, last_to: Option<Square>, text: &str) -> Result<Move, MoveProblem> {
    let (jm, _) = parse(text).ok_or(MoveProblem::NoMatch)?;
    resolve(pos, last_to, &jm)
}

/// The side to move's pieces of `kind` that attack `to`, pinned or not: the pieces a
/// reader that does not look at pins may take for the mover. The writer singles the
/// mover out among these, so that such readers (and ours, which only considers legal
/// moves) all find the same move.
fn writer_candidates(pos: &Position, to: Square, kind: PieceKind) -> Vec<Square> {
    let color = pos.side_to_move();
    (pos.attackers_to(to, color, pos.occupancy()) & pos.pieces(color, kind))
        .into_iter()
        .collect()
}

/// The markers (and 打) that single out the legal move `mv` in `pos`.
fn markers_for(pos: &Position, mv: Move) -> (Markers, bool) {
    let color = pos.side_to_move();
    match mv {
        Move::Drop { kind, to } => {
            let on_board = !writer_candidates(pos, to, kind.piece_kind()).is_empty();
            (Markers::default(), on_board)
        }
        Move::Board { from, to, .. } => {
            let Some(piece) = pos.piece_at(from) else {
                return (Markers::default(), false);
            };
            let cands = writer_candidates(pos, to, piece.kind);
            if cands.len() <= 1 {
                return (Markers::default(), false);
            }
            let fw = forward(color, from, to);
            let movement = Markers {
                up: fw > 0,
                down: fw < 0,
                sideways: fw == 0,
                ..Markers::default()
            };
            let mut tries = vec![movement];
            if !matches!(piece.kind, PieceKind::Dragon | PieceKind::Horse)
                && from.file() == to.file()
                && fw > 0
            {
                tries.push(Markers {
                    straight: true,
                    ..Markers::default()
                });
            }
            for side in [
                Markers {
                    right: true,
                    ..Markers::default()
                },
                Markers {
                    left: true,
                    ..Markers::default()
                },
            ] {
                tries.push(side);
            }
            for side in [true, false] {
                tries.push(Markers {
                    right: side,
                    left: !side,
                    ..movement
                });
            }
            for t in tries {
                let found = filter(cands.iter().copied().collect(), to, color, t);
                if found.single() == Some(from) {
                    return (t, false);
                }
            }
            (movement, false)
        }
    }
}

/// The move text without the side mark: `７六歩`, `同　銀`, `５五角打`, `５八金右`, `２二角成`.
#[must_use]
pub fn write_body(pos: &Position, mv: Move, last_to: Option<Square>) -> String {
    let color = pos.side_to_move();
    let to = mv.to();
    let kind = match mv {
        Move::Drop { kind, .. } => kind.piece_kind(),
        Move::Board { from, .. } => pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind),
    };
    let mut s = destination(to, last_to, kind);
    s.push_str(piece_name(kind));
    let (markers, drop) = markers_for(pos, mv);
    s.push_str(&markers.text());
    if let Move::Board { from, promote, .. } = mv {
        if promote {
            s.push('成');
        } else if rules::can_promote(color, kind, from, to) {
            s.push_str("不成");
        }
    }
    if drop {
        s.push('打');
    }
    s
}

/// `７六` or, when `to` is where the previous move landed, `同` (with a full-width
/// space before a one-character piece name).
pub(crate) fn destination(to: Square, last_to: Option<Square>, kind: PieceKind) -> String {
    if last_to == Some(to) {
        if piece_name(kind).chars().count() == 1 {
            "同　".to_string()
        } else {
            "同".to_string()
        }
    } else {
        square_text(to)
    }
}

/// The side mark: `▲` for Sente, `△` for Gote.
#[must_use]
pub fn mark(color: Color) -> char {
    match color {
        Color::Sente => '▲',
        Color::Gote => '△',
    }
}

/// The full move text with the side mark: `▲７六歩`, `△同　銀`.
#[must_use]
pub fn write(pos: &Position, mv: Move, last_to: Option<Square>) -> String {
    format!(
        "{}{}",
        mark(pos.side_to_move()),
        write_body(pos, mv, last_to)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `board_candidates` replaced: the legal moves filtered.
    fn by_generation(
        pos: &Position,
        legal: &[Move],
        to: Square,
        kind: PieceKind,
        promote: bool,
    ) -> Vec<Square> {
        legal
            .iter()
            .filter_map(|&m| match m {
                Move::Board {
                    from,
                    to: t,
                    promote: p,
                } if t == to
                    && p == promote
                    && pos.piece_at(from).map(|pc| pc.kind) == Some(kind) =>
                {
                    Some(from)
                }
                _ => None,
            })
            .collect()
    }

    /// What `parse_piece` replaced: the table's names tried in order.
    fn by_table(s: &str) -> Option<(PieceKind, &str)> {
        PIECE_NAMES
            .iter()
            .find_map(|&(name, kind)| s.strip_prefix(name).map(|rest| (kind, rest)))
    }

    /// What `parse` did before it compared bytes: the characters decoded.
    fn parse_by_chars(s: &str) -> Option<(JapaneseMove, &str)> {
        let mut s = skip_spaces(s);
        let mut color = None;
        if let Some(c) = s.chars().next() {
            let mark = match c {
                '▲' | '☗' | '▼' => Some(Color::Sente),
                '△' | '☖' | '▽' => Some(Color::Gote),
                _ => None,
            };
            if mark.is_some() {
                color = mark;
                s = &s[c.len_utf8()..];
            }
        }
        let to = if let Some(rest) = s.strip_prefix('同').or_else(|| s.strip_prefix('仝')) {
            s = skip_spaces(rest);
            None
        } else {
            let mut it = s.chars();
            let f = digit_value(it.next()?)?;
            let r = digit_value(it.next()?)?;
            s = it.as_str();
            // Some writers put 同 after the square: `２四同歩`.
            if let Some(rest) = s.strip_prefix('同') {
                s = skip_spaces(rest);
            }
            Some(Square::from_numbers(f, r)?)
        };
        let (kind, rest) = parse_piece(s)?;
        s = rest;
        let mut mv = JapaneseMove {
            color,
            to,
            kind,
            markers: Markers::default(),
            drop: false,
            promote: None,
            from: None,
        };
        loop {
            let mut it = s.chars();
            match it.next() {
                Some('右') => mv.markers.right = true,
                Some('左') => mv.markers.left = true,
                Some('直') => mv.markers.straight = true,
                Some('上' | '行' | '入') => mv.markers.up = true,
                Some('引') => mv.markers.down = true,
                Some('寄') => mv.markers.sideways = true,
                Some('打') => mv.drop = true,
                Some('成') => mv.promote = Some(true),
                Some('生') => mv.promote = Some(false),
                Some('不') => {
                    let rest = it.as_str();
                    let rest = rest.strip_prefix('成')?;
                    mv.promote = Some(false);
                    s = rest;
                    continue;
                }
                _ => break,
            }
            s = it.as_str();
        }
        if let Some(rest) = s.strip_prefix('(').or_else(|| s.strip_prefix('（')) {
            let mut it = rest.chars();
            let f = digit_value(it.next()?)?;
            let r = digit_value(it.next()?)?;
            let rest = it.as_str();
            let rest = rest.strip_prefix(')').or_else(|| rest.strip_prefix('）'))?;
            mv.from = Some(Square::from_numbers(f, r)?);
            s = rest;
        }
        Some((mv, s))
    }

    proptest::proptest! {
        #[test]
        fn parse_agrees_with_the_character_reading(
            mark in "[ 　▲△☗☖▼▽x]{0,2}",
            to in "(同|仝|[1-9１-９一二三四五六七八九é０][1-9１-９一九0]同?)[ 　]?",
            piece in "成[香桂銀x]?|[歩香桂銀金角飛玉王と杏圭全馬龍竜x]",
            markers in "[右左直上行入引寄打成生不😀]{0,3}",
            from in "([(（][1-9１-９一九x]{0,2}[)）]?)?",
            tail in "[ x]{0,2}",
        ) {
            let s = format!("{mark}{to}{piece}{markers}{from}{tail}");
            proptest::prop_assert_eq!(parse(&s), parse_by_chars(&s));
            // A KI2 reader reads a token from the rest of its line: what
            // follows from the next mark on changes nothing read.
            for next in ["▲７六歩", "△", "▽同　銀", "☗"] {
                let line = format!("{s}{next}");
                proptest::prop_assert_eq!(parse(&line).map(|(m, _)| m), parse(&s).map(|(m, _)| m));
            }
            for (i, _) in s.char_indices() {
                proptest::prop_assert_eq!(parse(&s[..i]), parse_by_chars(&s[..i]));
            }
        }
    }

    proptest::proptest! {
        /// The quick path's moves and their near misses, picked from
        /// parts rather than characters so that each comes up often: the
        /// quick path reads a move as the general one and as the reading
        /// character by character, or leaves it to them.
        #[test]
        fn parse_plain_agrees_with_parse_any(
            mark in proptest::sample::select(vec!["", "▲", "△", "▽", " "]),
            to in proptest::sample::select(vec!["７六", "同　", "同 ", "同", "同　　", "１一", "7六", "７6", "９九", "同　同"]),
            piece in proptest::sample::select(vec!["歩", "銀", "成銀", "と", "龍", "玉", "x", "成"]),
            suffix in proptest::sample::select(vec!["", "成", "不成", "打", "右", "成右", "生", "成成"]),
            from in proptest::sample::select(vec!["", "(77)", "（７７）", "(7", "(0)"]),
            tail in proptest::sample::select(vec!["", " ", "▲", "x", "　"]),
        ) {
            let s = format!("{mark}{to}{piece}{suffix}{from}{tail}");
            proptest::prop_assert_eq!(parse(&s), parse_by_chars(&s), "{}", s);
            if let Some(plain) = parse_plain(&s) {
                proptest::prop_assert_eq!(Some(plain), parse_any(&s), "{}", s);
            }
        }
    }

    #[test]
    fn parse_piece_agrees_with_the_table() {
        let mut firsts: Vec<char> = PIECE_NAMES.iter().flat_map(|(n, _)| n.chars()).collect();
        firsts.extend(['x', '成', '不', '　', '7']);
        for &a in &firsts {
            for &b in &firsts {
                for tail in ["", "成(77)", "x"] {
                    let s = format!("{a}{b}{tail}");
                    assert_eq!(parse_piece(&s), by_table(&s), "{s}");
                    assert_eq!(
                        parse_piece(&s[..a.len_utf8()]),
                        by_table(&s[..a.len_utf8()])
                    );
                }
            }
        }
        assert_eq!(parse_piece(""), None);
    }

    #[test]
    fn board_candidates_list_pinned_pieces_last() {
        // The gold on 5e is pinned by the rook on 5a and may still go up to 5d.
        let pos = shogi_core::sfen::parse_position("4r3k/9/9/3G5/4G4/9/9/9/4K4 b - 1")
            .expect("valid SFEN");
        let to: Square = "5d".parse().expect("square");
        let legal = pos.legal_moves();
        let got = board_candidates(&pos, to, PieceKind::Gold, false);
        assert_eq!(got.len(), 2);
        assert_eq!(
            got.iter().collect::<Vec<_>>(),
            by_generation(&pos, &legal, to, PieceKind::Gold, false)
        );
    }

    /// What `board_candidates` did before it judged the king's safety once
    /// for all pieces: `check_move` on every piece that reaches `to`.
    fn by_check_move(pos: &Position, to: Square, kind: PieceKind, promote: bool) -> Vec<Square> {
        let us = pos.side_to_move();
        let reach = attacks::piece(us.opponent(), kind, to, pos.occupancy()) & pos.pieces(us, kind);
        let pinned = pos.pinned(us);
        (reach & !pinned)
            .into_iter()
            .chain(reach & pinned)
            .filter(|&from| pos.check_move(Move::Board { from, to, promote }).is_ok())
            .collect()
    }

    /// Games that give check whenever they can (so that checks, double
    /// checks and pins are frequent), also with a king taken off the board
    /// as in tsume problems.
    #[test]
    fn board_candidates_agree_with_check_move_in_checks_and_pins() {
        let mut next = crate::test_rng::xorshift(0x1d8e_4e27_c47d_124f_u64);
        let mut checks = 0;
        for game in 0..40 {
            let mut pos = Position::startpos();
            for _ply in 0..150 {
                let mut variants = vec![pos.clone()];
                if game % 4 == 0 {
                    for color in Color::ALL {
                        let mut setup = pos.to_setup();
                        if let Some(k) = pos.king(color) {
                            setup.set(k, None);
                        }
                        if let Ok(p) = Position::from_setup_with(
                            setup,
                            shogi_core::Leniency {
                                allow_missing_kings: true,
                            },
                        ) {
                            variants.push(p);
                        }
                    }
                }
                for p in &variants {
                    checks += usize::from(p.in_check());
                    for to in Square::all() {
                        for kind in PieceKind::ALL {
                            for promote in [false, true] {
                                assert_eq!(
                                    board_candidates(p, to, kind, promote)
                                        .iter()
                                        .collect::<Vec<_>>(),
                                    by_check_move(p, to, kind, promote),
                                    "{kind:?} to {to} promote {promote} in {}",
                                    p.to_sfen()
                                );
                            }
                        }
                    }
                }
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let checking: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| pos.gives_check(m))
                    .collect();
                let m = if !checking.is_empty() && !next().is_multiple_of(3) {
                    checking[(next() % checking.len() as u64) as usize]
                } else {
                    legal[(next() % legal.len() as u64) as usize]
                };
                pos.make_move(m);
            }
        }
        assert!(checks > 500, "{checks}");
    }

    #[test]
    fn board_candidates_match_the_generator_in_its_order() {
        let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d_u64);
        for _game in 0..20 {
            let mut pos = Position::startpos();
            for _ply in 0..120 {
                let legal = pos.legal_moves();
                for to in Square::all() {
                    for kind in PieceKind::ALL {
                        for promote in [false, true] {
                            assert_eq!(
                                board_candidates(&pos, to, kind, promote)
                                    .iter()
                                    .collect::<Vec<_>>(),
                                by_generation(&pos, &legal, to, kind, promote),
                                "{kind:?} to {to} promote {promote} in {}",
                                pos.to_sfen()
                            );
                        }
                    }
                }
                if legal.is_empty() {
                    break;
                }
                pos.make_move(legal[(next() % legal.len() as u64) as usize]);
            }
        }
    }
}
