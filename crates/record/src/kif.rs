//! KIF / KIFU records (柿木将棋 format): headers, board diagrams (BOD),
//! numbered move lines with times, comments, variations and terminal words.
//!
//! The reader also understands KI2 move lines (`▲７六歩　△３四歩`), so a
//! file mixing both reads; [`crate::ki2`] uses the same reader.
//!
//! Recognised lines: `key：value` headers (full-width or ASCII colon);
//! `手合割` with every standard handicap name (other names such as `詰将棋`
//! are kept in [`Headers::other`](crate::Headers::other), the board diagram
//! decides the start); the BOD (`後手の持駒：`, the `+---+` board with `v`
//! for Gote's pieces and `・` for empty squares, `先手の持駒：`,
//! `後手番`/`先手番`, also `上手`/`下手`); move lines like
//! `   1 ７六歩(77)   ( 0:01/00:00:01)`, `同　歩(23)`, `５五角打`, `成`/`不成`;
//! `*` comments on the move above (before the first move: on the start);
//! `&` bookmarks and `#` lines (ignored); `変化：N手` variations (an
//! alternative to move N of the most recent line that has one; a block whose
//! N no line has is skipped); terminal
//! words (投了, 詰み, 千日手, 持将棋, 反則勝ち, 反則負け, 切れ負け, 時間切れ,
//! 中断, 入玉勝ち, 宣言勝ち, トライ, 不詰, 封じ手, 連続王手の千日手, 最大手数, 引き分け,
//! 待った, エラー); and `まで…` summary lines, which give the ending when no
//! terminal word did and name the side a terminal word only implies (so a
//! resignation out of turn keeps its loser). A try-rule win is written
//! `トライ`, as tsshogi writes it, with the summary `まで…手で先手のトライ勝ち`.
//!
//! ```
//! let text = "手合割：平手\n手数----指手----消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n*a comment\n   2 投了\n";
//! let rec = shogi_record::kif::read(text)?;
//! assert_eq!(rec.main_line().len(), 1);
//! assert_eq!(rec.moves[0].time, Some(1));
//! assert_eq!(rec.moves[0].comments, ["a comment"]);
//! assert!(matches!(rec.ending, shogi_record::Ending::Game(shogi_core::Ending::Resignation { .. })));
//! let again = shogi_record::kif::read(&shogi_record::kif::write(&rec))?;
//! assert_eq!(again.main_line(), rec.main_line());
//! # Ok::<_, shogi_record::ReadError>(())
//! ```

use std::cell::OnceCell;
use std::fmt::Write as _;

use shogi_core::{Color, HandKind, Handicap, Piece, PieceKind, Position, Setup, Square};

use crate::builder::{lenient_start, Builder, Mark};
use crate::encoding::{self, Encoding};
use crate::error::{ReadError, ReadErrorKind};
use crate::kif_family::ending::{
    refine, starts_as_a_move, summary, summary_ending, terminal, terminal_word,
};
use crate::kif_family::lookahead::{best_reading, first_reading, Ki2Token, LOOKAHEAD_BUDGET};
use crate::kif_family::preamble;
use crate::notation::japanese::{self, digit_value, kanji_count, parse_piece};
use crate::notation::kif as kif_move;
use crate::record::{Ending, Headers, Node, Record, TimeControl};
use crate::scan;

/// Reads KIF (or KI2) bytes, sniffing the encoding from the content.
///
/// # Errors
/// A malformed board diagram, hand or variation line, or an illegal start position.
pub fn read_bytes(bytes: &[u8]) -> Result<Record, ReadError> {
    read(&encoding::decode_cow(bytes).0)
}

/// Reads KIF (or KI2) text.
///
/// # Errors
/// A malformed board diagram, hand or variation line, or an illegal start position.
pub fn read(text: &str) -> Result<Record, ReadError> {
    let mut r = Reader::new();
    // A KI2 move takes at least eight bytes (`▲同　歩`), a KIF move line more.
    r.b.reserve_main_line(text.len() / 8);
    r.run(text)
}

/// Splits `key：value` (full-width or ASCII colon).
fn header(line: &str) -> Option<(&str, &str)> {
    let (k, v) = if let Some(i) = scan::find_char(line, '：') {
        (&line[..i], &line[i + '：'.len_utf8()..])
    } else {
        let i = scan::find_byte(line.as_bytes(), b':')?;
        (&line[..i], &line[i + 1..])
    };
    let k = if may_hold_whitespace(k.as_bytes()) {
        let k = k.trim();
        if k.chars().any(char::is_whitespace) {
            return None;
        }
        k
    } else {
        k
    };
    if k.is_empty() {
        return None;
    }
    // `v.trim_matches([' ', '　', '\t'])`, as bytes.
    Some((k, scan::trim_end_spaces(scan::trim_start_spaces(v))))
}

/// How many lines of `text` the first game takes when a second game's
/// first move is on line `second` (from 1, a [`ReadErrorKind::SeveralRecords`]
/// error's line): the lines before it, less the second game's own
/// preamble just above it (blank lines, `key：value` headers, `#` remarks
/// and the `手数----指手` line).
pub(crate) fn first_game_lines(text: &str, second: usize) -> usize {
    let lines: Vec<&str> = text.split('\n').take(second.saturating_sub(1)).collect();
    preamble_start(&lines)
}

/// How many lines of `text` a game that does not read takes, its error on
/// line `error` (from 1): up to the next game's preamble, the next game
/// starting at the first line after the error that opens one (a
/// `手数----指手` line or a header such as `先手`), or 0 (the rest of the
/// file is this game's) when there is none or the error came before the
/// game's moves (a header's error is followed by the game's own headers).
pub(crate) fn failed_game_lines(text: &str, error: usize) -> usize {
    let moves_began = text.split('\n').take(error).any(|l| {
        let t = trim_line(l);
        t.as_bytes().first().is_some_and(u8::is_ascii_digit)
            || is_mark(t.as_bytes(), 0)
            || moves_heading(t)
    });
    if !moves_began {
        return 0;
    }
    // The lines after the error up to the next game's opening line only:
    // each game of a file is looked through once, not the rest of the file.
    let mut after = Vec::new();
    for line in text.split('\n').skip(error) {
        let t = trim_line(line);
        if moves_heading(t) || header(t).is_some_and(|(k, _)| opens_a_game(k)) {
            return error + preamble_start(&after);
        }
        after.push(line);
    }
    0
}

/// Whether a trimmed line is the `手数----指手----消費時間--` line that
/// starts the moves (`手数＝N` is a board diagram's note).
fn moves_heading(t: &str) -> bool {
    t.starts_with("手数") && t.contains("指手")
}

/// A line without its trailing `\r`, spaces and tabs and its leading spaces.
fn trim_line(line: &str) -> &str {
    scan::trim_start_spaces(scan::trim_end_ascii(line, b"\r \t"))
}

/// Where the preamble just above the end of `lines` starts (blank lines,
/// `key：value` headers, `#` remarks and the `手数----指手` line).
fn preamble_start(lines: &[&str]) -> usize {
    let mut n = lines.len();
    while let Some(line) = n.checked_sub(1).and_then(|i| lines.get(i)) {
        let t = trim_line(line);
        let preamble = t.is_empty()
            || t.starts_with('#')
            || t.starts_with("手数")
            || (!t.starts_with("まで") && !t.starts_with('*') && header(t).is_some());
        if !preamble {
            break;
        }
        n -= 1;
    }
    n
}

/// Whether a header with this key opens a game: written after a game's
/// moves, it starts the next game.
fn opens_a_game(key: &str) -> bool {
    matches!(
        key,
        "開始日時" | "手合割" | "棋戦" | "先手" | "後手" | "下手" | "上手"
    )
}

/// Whether `b` may hold a character that [`char::is_whitespace`] accepts:
/// one of the bytes that start one (ASCII `\t`-`\r` and space, and the
/// lead bytes `C2`, `E1`, `E2` of the others) or a full-width space
/// (`E3 80 80`, whose lead byte also starts every kana). A header key,
/// kanji and kana, mostly has none and is then neither trimmed nor
/// searched character by character.
fn may_hold_whitespace(b: &[u8]) -> bool {
    b.iter().enumerate().any(|(i, &x)| match x {
        0x09..=0x0D | b' ' | 0xC2 | 0xE1 | 0xE2 => true,
        0xE3 => b.get(i + 1..i + 3) == Some(&[0x80, 0x80]),
        _ => false,
    })
}

/// Whether a KI2 mark (`▲△▼▽☗☖`) starts at byte `i` of `b`. Every mark is
/// three bytes in UTF-8, led by `0xE2`, which only ever starts a character,
/// so a byte match is a character match.
fn is_mark(b: &[u8], i: usize) -> bool {
    matches!(
        b.get(i..i + 3),
        Some([0xE2, 0x96, 0xB2 | 0xB3 | 0xBC | 0xBD] | [0xE2, 0x98, 0x96 | 0x97])
    )
}

/// The byte offset of the first KI2 mark at or after `from` in `b`, or
/// `b.len()`. Only the lead byte `0xE2` is looked for (the digits and kanji
/// of moves never start with it), and the rest of a mark compared where one
/// is found: a range search testing three bytes at every offset was a tenth
/// of reading KI2. `scan::find_byte` looks sixteen bytes at a time: a loop
/// byte by byte was faster while that search's tail stalled, and is 1 %
/// slower since (more instructions, fewer branches mispredicted).
fn next_mark(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(off) = b.get(i..).and_then(|r| scan::find_byte(r, 0xE2)) {
        let at = i + off;
        if is_mark(b, at) {
            return at;
        }
        i = at + 1;
    }
    b.len()
}

/// Minutes and seconds of a KIF time column `( 0:01/00:00:01)`.
fn move_time(rest: &str) -> Option<u32> {
    // `(` and `/` are ASCII: their byte offsets are character boundaries.
    let open = scan::find_byte(rest.as_bytes(), b'(')?;
    let inner = &rest[open + 1..];
    let slash = scan::find_byte(inner.as_bytes(), b'/')?;
    let clock = &inner[..slash];
    if clock
        .bytes()
        .all(|b| b == b' ' || b == b':' || b.is_ascii_digit())
    {
        return ascii_clock(clock);
    }
    let mut secs: u32 = 0;
    for part in inner[..slash].trim().split([':']) {
        secs = secs
            .checked_mul(60)?
            .checked_add(part.trim().parse::<u32>().ok()?)?;
    }
    Some(secs)
}

/// [`move_time`]'s reading of a clock made only of ASCII spaces, digits and
/// colons, without the general trimming and splitting: `:`-separated
/// numbers, each with spaces around it only, as `u32`s (`None` on an empty
/// part or an overflow, as `str::parse` gives).
fn ascii_clock(clock: &str) -> Option<u32> {
    // Trimming the whole before splitting only removes spaces that trimming
    // each part removes too.
    let mut secs: u32 = 0;
    for part in clock.as_bytes().split(|&b| b == b':') {
        let start = part.iter().position(|&b| b != b' ')?;
        let end = part.iter().rposition(|&b| b != b' ')? + 1;
        let mut n: u32 = 0;
        for &d in &part[start..end] {
            if !d.is_ascii_digit() {
                return None;
            }
            n = n.checked_mul(10)?.checked_add(u32::from(d - b'0'))?;
        }
        secs = secs.checked_mul(60)?.checked_add(n)?;
    }
    Some(secs)
}

fn hand_kind_of(kind: PieceKind) -> Option<HandKind> {
    if kind.is_promoted() {
        None
    } else {
        kind.hand_kind()
    }
}

#[expect(
    clippy::struct_excessive_bools,
    reason = "independent facts the reader has seen so far, not a state machine"
)]
struct Reader<'a> {
    /// The KI2 tokens of the current block from its first ambiguous move
    /// on, for the look-ahead.
    pending: Vec<Ki2Token<'a>>,
    /// While the moves from the current block's first ambiguous one on are
    /// played at once: where the line stood before that move.
    speculation: Option<Mark>,
    /// Whether the current block of KI2 lines had a terminal word: what
    /// follows it up to the end of the block is not played.
    ki2_block_ended: bool,
    b: Builder,
    started: bool,
    headers: Headers,
    setup: Setup,
    rows: usize,
    have_board: bool,
    have_side: bool,
    /// Whether anything a record is made of has been read (a known header, a
    /// board, a move, an ending); a text with none of these is not a record.
    found: bool,
    /// Whether a line that opens a game (a `手数----指手` line, or a header
    /// such as `先手` or `開始日時`) came after this game's moves (or its
    /// end) and after its last `変化` line: moves then are another game's.
    next_game_opened: bool,
    /// A `手合割` whose name is not a known handicap: an error unless a
    /// board diagram gives the position (`手合割：詰将棋` above a problem).
    unknown_handicap: Option<(usize, String, String)>,
    /// Test only: resolve KI2 moves with the look-ahead alone, as before the
    /// fast path for unambiguous moves, to check that both read alike.
    #[cfg(test)]
    lookahead_only: bool,
}

impl<'a> Reader<'a> {
    fn new() -> Reader<'a> {
        Reader {
            pending: Vec::new(),
            speculation: None,
            ki2_block_ended: false,
            b: Builder::new(Position::startpos()),
            started: false,
            headers: Headers::default(),
            setup: Setup::empty(),
            rows: 0,
            have_board: false,
            have_side: false,
            found: false,
            next_game_opened: false,
            unknown_handicap: None,
            #[cfg(test)]
            lookahead_only: false,
        }
    }

    /// Sets up the start position when the moves begin (once: asked of
    /// every move line, so the test is inlined and the setup is not).
    #[inline]
    fn start(&mut self, line_no: usize) -> Result<(), ReadError> {
        if self.started {
            return Ok(());
        }
        self.start_now(line_no)
    }

    fn start_now(&mut self, line_no: usize) -> Result<(), ReadError> {
        self.started = true;
        if let (Some((at, line, name)), false) = (&self.unknown_handicap, self.have_board) {
            return Err(ReadError::at(
                *at,
                line,
                name,
                ReadErrorKind::UnknownHandicap,
            ));
        }
        let pos = if self.have_board || (self.have_side && self.headers.handicap.is_none()) {
            if self.rows != 9 && self.have_board {
                return Err(ReadError::new(line_no, 1, "", ReadErrorKind::BadBoard));
            }
            if !self.have_board {
                // Hands or side without a board: the even start.
                let mut s = Setup::startpos();
                s.hands = self.setup.hands;
                s.side_to_move = self.setup.side_to_move;
                self.setup = s;
            }
            let start = lenient_start(self.setup.clone()).map_err(|e| {
                ReadError::new(line_no, 1, "", ReadErrorKind::Position(e.to_string()))
            })?;
            match start {
                Some(pos) => pos,
                None => return Ok(()),
            }
        } else {
            match self.headers.handicap {
                None | Some(Handicap::Even) => return Ok(()),
                Some(h) => h.position(),
            }
        };
        // The builder starts from the even start (the returns above).
        self.b.set_start(pos);
        Ok(())
    }

    fn board_row(&mut self, line_no: usize, line: &str) -> Result<(), ReadError> {
        let bad = || ReadError::at(line_no, line, line, ReadErrorKind::BadBoard);
        if self.rows >= 9 {
            return Err(bad());
        }
        let rank = self.rows as u8 + 1;
        let mut file = 9u8;
        let mut gote = false;
        for c in line.chars().skip(1) {
            match c {
                '|' => break,
                'v' | 'V' => gote = true,
                ' ' | '　' | '^' | '+' => {}
                '・' => {
                    file = file.checked_sub(1).ok_or_else(bad)?;
                    gote = false;
                }
                _ => {
                    let mut buf = [0u8; 4];
                    let (kind, _) = parse_piece(c.encode_utf8(&mut buf)).ok_or_else(bad)?;
                    let sq = Square::from_numbers(file, rank).ok_or_else(bad)?;
                    let color = if gote { Color::Gote } else { Color::Sente };
                    self.setup.set(sq, Some(Piece::new(color, kind)));
                    file = file.checked_sub(1).ok_or_else(bad)?;
                    gote = false;
                }
            }
        }
        if file != 0 {
            return Err(bad());
        }
        self.rows += 1;
        self.have_board = true;
        Ok(())
    }

    fn hand(
        &mut self,
        line_no: usize,
        line: &str,
        color: Color,
        value: &str,
    ) -> Result<(), ReadError> {
        let hand = &mut self.setup.hands[color];
        for tok in value
            .split([' ', '　', '\t', '、'])
            .filter(|t| !t.is_empty())
        {
            if tok == "なし" {
                continue;
            }
            let bad = || ReadError::at(line_no, line, tok, ReadErrorKind::BadHand);
            let (kind, rest) = parse_piece(tok).ok_or_else(bad)?;
            let hk = hand_kind_of(kind).ok_or_else(bad)?;
            let n = kanji_count(rest).ok_or_else(bad)?;
            hand.set(hk, hand.count(hk).saturating_add(n));
        }
        Ok(())
    }

    fn header_line(
        &mut self,
        line_no: usize,
        line: &str,
        key: &str,
        value: &str,
    ) -> Result<(), ReadError> {
        let opt = |v: &str| (!v.is_empty()).then(|| v.to_string());
        match key {
            "先手の持駒" | "下手の持駒" => {
                return self.hand(line_no, line, Color::Sente, value)
            }
            "後手の持駒" | "上手の持駒" => {
                return self.hand(line_no, line, Color::Gote, value)
            }
            _ => {}
        }
        let h = &mut self.headers;
        match key {
            "先手" | "下手" => h.sente = opt(value),
            "後手" | "上手" => h.gote = opt(value),
            "棋戦" => h.event = opt(value),
            "場所" => h.site = opt(value),
            "開始日時" => h.start_time = opt(value),
            "終了日時" => h.end_time = opt(value),
            "手合割" if Handicap::from_kif_name(value).is_some() => {
                h.handicap = Handicap::from_kif_name(value);
            }
            "手合割" => {
                self.unknown_handicap = Some((line_no, line.to_string(), value.to_string()));
                h.other.push((key.to_string(), value.to_string()));
                return Ok(());
            }
            "持ち時間" if TimeControl::parse_plus(value).is_some() => {
                h.time_control = TimeControl::parse_plus(value);
            }
            _ => h.other.push((key.to_string(), value.to_string())),
        }
        Ok(())
    }

    fn variation(&mut self, line_no: usize, line: &str, rest: &str) -> Result<(), ReadError> {
        self.start(line_no)?;
        let digits: String = rest
            .chars()
            .filter_map(|c| digit_value(c).or((c == '0').then_some(0)))
            .map(|d| char::from(b'0' + d))
            .collect();
        let ply: usize = digits
            .parse()
            .map_err(|_| ReadError::at(line_no, line, rest, ReadErrorKind::BadVariation))?;
        if !self.b.begin_variation(ply) {
            // No line has that move (say, an alternative to the resignation): skip the block.
            self.b.skip_variation();
        }
        Ok(())
    }

    /// A move line: `line` as read, `trimmed` without its leading spaces,
    /// starting with the move number (ASCII digits).
    fn kif_move(&mut self, line_no: usize, line: &str, trimmed: &str) -> Result<(), ReadError> {
        self.start(line_no)?;
        // After the number's digits (single bytes: the cut is a boundary).
        let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
        let body = &trimmed[digits..];
        let body = scan::trim_start_spaces(body);
        if self.b.is_dead() {
            return Ok(());
        }
        let stm = self.b.position().side_to_move();
        if let Some(e) = terminal(body, stm) {
            self.b.ending(e);
            return Ok(());
        }
        match japanese::parse(body) {
            Some((jm, rest)) => {
                let mv = japanese::resolve(self.b.position(), self.b.last_to(), &jm);
                // The move as written is kept only for an illegal move's report.
                let text = if mv.is_ok() {
                    ""
                } else {
                    &body[..body.find(char::is_whitespace).unwrap_or(body.len())]
                };
                // `resolve` gives only moves legal in this position.
                self.b.push_legal(mv, text);
                if let Some(t) = move_time(rest) {
                    self.b.time(t);
                }
                Ok(())
            }
            None => Err(ReadError::at(
                line_no,
                line,
                body.split_whitespace().next().unwrap_or(body),
                ReadErrorKind::BadMove,
            )),
        }
    }

    /// Moves of the next game of a file of several, refused rather than
    /// appended to this one: moves in the main line after this game ended
    /// (resigned, mated, drawn, lost on time...; a terminal word or a `まで`
    /// summary), and moves after a line opening a game that came after this
    /// game's moves ([`Reader::next_game_opened`]). A KIF move line (its
    /// number's digits `numbered`) starts the next game there only when
    /// numbered 1 (and not in a variation of the first move); after the
    /// end, so does one numbered 1 in a variation (the variations follow
    /// the ending) with no header above it. A game adjourned (`封じ手`),
    /// broken off (`中断`) or marked with `待った`, `不詰` or `エラー` may go
    /// on. Asked only where [`Reader::may_start_next_game`], so kept out
    /// of line.
    #[cold]
    #[inline(never)]
    fn refuse_next_game(
        &self,
        line_no: usize,
        line: &str,
        text: &str,
        numbered: Option<&str>,
    ) -> Result<(), ReadError> {
        let over = matches!(self.b.current_ending(), Ending::Game(e) if !matches!(e, shogi_core::Ending::Abort));
        let next_game = (over && self.b.in_main_line())
            || match numbered {
                // KI2: no numbers.
                None => self.next_game_opened,
                Some(n) => n == "1" && self.b.next_ply() != 1 && (over || self.next_game_opened),
            };
        if next_game {
            return Err(ReadError::at(
                line_no,
                line,
                text,
                ReadErrorKind::SeveralRecords,
            ));
        }
        Ok(())
    }

    /// Whether moves here may be the next game's: the record has an ending,
    /// or a line opening a game came after its moves
    /// ([`Reader::refuse_next_game`] decides).
    #[inline]
    fn may_start_next_game(&self) -> bool {
        self.next_game_opened || !matches!(self.b.current_ending(), Ending::None)
    }

    fn ki2_moves(&mut self, line_no: usize, line: &'a str) -> Result<(), ReadError> {
        self.start(line_no)?;
        // A new block (the last one played) where the next game may start.
        if self.pending.is_empty() && !self.ki2_block_ended && self.may_start_next_game() {
            self.refuse_next_game(line_no, line, line, None)?;
        }
        // Each mark starts a token that runs to the next mark. The line starts
        // with one (three bytes).
        let mut start = 0;
        loop {
            let next = self.ki2_token(line_no, line, start)?;
            if next == line.len() {
                return Ok(());
            }
            start = next;
        }
    }

    /// Reads the KI2 token (`▲７六歩`, `△投了`) at byte `start` of `line`,
    /// plays or queues it, and returns where the next token starts.
    ///
    /// A token runs up to the next mark, with the spaces before it. The
    /// move or terminal word is read from the rest of the line: neither
    /// reads a mark after its start, so the token's end does not change
    /// what is read, and the next mark is looked for only after the move's
    /// text. The text kept for an illegal move's report is trimmed where it
    /// is reported; a malformed move's error names the token without its
    /// trailing spaces.
    fn ki2_token(
        &mut self,
        line_no: usize,
        line: &'a str,
        start: usize,
    ) -> Result<usize, ReadError> {
        let rest = &line[start..];
        // After the mark, three bytes.
        let body = rest.get(3..).unwrap_or("");
        let b = line.as_bytes();
        if !starts_as_a_move(body) && terminal(body, Color::Sente).is_some() {
            self.play_or_queue(Ki2Token::End(body));
            return Ok(next_mark(b, start + 3));
        }
        match japanese::parse(rest) {
            Some((jm, after)) => {
                let next = next_mark(b, line.len() - after.len());
                let text = &line[start..next];
                if !self.played_at_once(&jm) {
                    self.play_or_queue(Ki2Token::Move(jm, text));
                }
                Ok(next)
            }
            None => {
                let tok = scan::trim_end_spaces(&line[start..next_mark(b, start + 3)]);
                Err(ReadError::at(line_no, line, tok, ReadErrorKind::BadMove))
            }
        }
    }

    /// Plays a KI2 token at once while its block has needed no look-ahead,
    /// or queues it for [`Reader::flush_ki2`]. Moves with a single reading
    /// are played straight away, as the look-ahead would play them: it
    /// weighs only ambiguous moves and spends none of its budget before the
    /// first one, which starts the queue. Playing at once spares copying
    /// every token into a queue that grows with the block.
    ///
    /// From the first ambiguous move on, each move is still played at once,
    /// an ambiguous one in the reading the look-ahead tries first
    /// ([`first_reading`]), and queued as well: if every move to the end of
    /// the block has a reading, these are the look-ahead's choices. A move
    /// with no reading takes them all back, and the look-ahead reads the
    /// queue when the block ends.
    fn play_or_queue(&mut self, tok: Ki2Token<'a>) {
        #[cfg(test)]
        if self.lookahead_only {
            self.pending.push(tok);
            return;
        }
        if !self.pending.is_empty() {
            if self.speculation.is_some() {
                self.speculate(&tok);
            }
            self.pending.push(tok);
            return;
        }
        // A terminal word ends the block, as an illegal move ends the line.
        if self.ki2_block_ended || self.b.is_dead() {
            return;
        }
        match tok {
            Ki2Token::Move(jm, text) => {
                match japanese::single_reading(self.b.position(), self.b.last_to(), &jm) {
                    Ok(Some(m)) => self.b.push_legal_move(m),
                    Ok(None) => {
                        self.speculation = Some(self.b.mark());
                        self.play_first_reading(&jm);
                        self.pending.push(tok);
                    }
                    // The line ends here (`resolve` gives the same error).
                    Err(e) => self.b.push_legal(Err(e), text),
                }
            }
            Ki2Token::End(body) => {
                let stm = self.b.position().side_to_move();
                if let Some(e) = terminal(body, stm) {
                    self.b.ending(e);
                }
                self.ki2_block_ended = true;
            }
        }
    }

    /// Plays `jm` if [`Reader::play_or_queue`] would play it at once with
    /// nothing else to do (no queue, a single reading, legal): most moves.
    /// The move is read where the parser left it: copied into a token
    /// first, it was loaded whole from the parser's narrower stores, which
    /// stalled the processor on every move.
    #[inline]
    fn played_at_once(&mut self, jm: &japanese::JapaneseMove) -> bool {
        #[cfg(test)]
        if self.lookahead_only {
            return false;
        }
        if !self.pending.is_empty() || self.ki2_block_ended || self.b.is_dead() {
            return false;
        }
        match japanese::single_reading(self.b.position(), self.b.last_to(), jm) {
            Ok(Some(m)) => {
                self.b.push_legal_move(m);
                true
            }
            _ => false,
        }
    }

    /// Plays a token from the block's first ambiguous move on, while every
    /// move since has had a reading (see [`Reader::play_or_queue`]).
    fn speculate(&mut self, tok: &Ki2Token<'a>) {
        match tok {
            Ki2Token::Move(jm, _) => {
                match japanese::single_reading(self.b.position(), self.b.last_to(), jm) {
                    Ok(Some(m)) => self.b.push_legal_move(m),
                    Ok(None) => self.play_first_reading(jm),
                    Err(_) => self.take_back_speculation(),
                }
            }
            Ki2Token::End(body) => {
                // Every move up to the terminal word had a reading: the
                // look-ahead's choices, made. The rest of the block is not
                // played.
                let stm = self.b.position().side_to_move();
                if let Some(e) = terminal(body, stm) {
                    self.b.ending(e);
                }
                self.speculation = None;
                self.pending.clear();
                self.ki2_block_ended = true;
            }
        }
    }

    /// Plays an ambiguous move in the reading the look-ahead tries first,
    /// while the block's moves are played at once.
    fn play_first_reading(&mut self, jm: &japanese::JapaneseMove) {
        let history = self.b.history();
        match first_reading(self.b.position(), self.b.last_to(), jm, &history) {
            Some(m) => self.b.push_legal_move(m),
            None => self.take_back_speculation(),
        }
    }

    /// Takes back the moves played at once since the block's first
    /// ambiguous move: the look-ahead reads the block when it ends.
    fn take_back_speculation(&mut self) {
        if let Some(mark) = self.speculation.take() {
            self.b.rewind(mark);
        }
    }

    /// Ends a block of KI2 move lines: resolves the queued moves, looking
    /// ahead (the first is ambiguous: written without markers, as some
    /// programs do) to pick the reading under which the following moves stay
    /// legal.
    fn flush_ki2(&mut self) {
        self.ki2_block_ended = false;
        if self.pending.is_empty() {
            return;
        }
        if self.speculation.take().is_some() {
            // Played already, as the look-ahead would have chosen.
            self.pending.clear();
            return;
        }
        let mut toks = std::mem::take(&mut self.pending);
        self.play_ki2_looking_ahead(&toks);
        toks.clear();
        self.pending = toks;
    }

    /// Plays KI2 tokens, choosing among the readings of ambiguous moves with the look-ahead.
    fn play_ki2_looking_ahead(&mut self, toks: &[Ki2Token<'a>]) {
        let chosen = if matches!(toks.first(), Some(Ki2Token::Move(..))) {
            let mut pos = self.b.position().clone();
            let mut budget = LOOKAHEAD_BUDGET;
            let mut history = self.b.history();
            best_reading(&mut pos, self.b.last_to(), toks, &mut budget, &mut history)
        } else {
            Vec::new()
        };
        for (i, tok) in toks.iter().enumerate() {
            if self.b.is_dead() {
                break;
            }
            match tok {
                Ki2Token::End(body) => {
                    let stm = self.b.position().side_to_move();
                    if let Some(e) = terminal(body, stm) {
                        self.b.ending(e);
                    }
                    break;
                }
                Ki2Token::Move(jm, text) => {
                    // Both are candidates of `japanese::resolve`, legal in this
                    // position: the look-ahead played the same moves before.
                    let mv = match chosen.get(i) {
                        Some(&m) => Ok(m),
                        None => japanese::resolve(self.b.position(), self.b.last_to(), jm),
                    };
                    self.b.push_legal(mv, text);
                }
            }
        }
    }

    fn run(mut self, text: &'a str) -> Result<Record, ReadError> {
        for (i, raw) in scan::lines(text).enumerate() {
            let line_no = i + 1;
            let line = scan::trim_end_ascii(raw, b"\r \t");
            let trimmed = scan::trim_start_spaces(line);
            if trimmed.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                // A move line, most of a KIF file: what the tests below
                // would find, found at once (such a line is part of a record,
                // ends a KI2 block and is no comment, `#`, `&`, 変化 or まで
                // line).
                self.found = true;
                self.flush_ki2();
                if !Reader::column_numbers(trimmed) {
                    if self.may_start_next_game() {
                        let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
                        let number = Some(&trimmed[..digits]);
                        self.refuse_next_game(line_no, line, trimmed, number)?;
                    }
                    self.kif_move(line_no, line, trimmed)?;
                }
                continue;
            }
            if is_mark(trimmed.as_bytes(), 0) {
                // A KI2 move line, most of a KI2 file: part of a record, as
                // `classify` finds.
                self.found = true;
                self.ki2_moves(line_no, trimmed)?;
                continue;
            }
            // The `key：value` split of the line, found at most once.
            let split = OnceCell::new();
            let free_text = Reader::classify(trimmed, &split);
            self.found |= !free_text;
            self.flush_ki2();
            if trimmed.is_empty() || line.starts_with('#') || line.starts_with('&') {
                continue;
            }
            if let Some(c) = line.strip_prefix('*') {
                self.b.comment(c);
                continue;
            }
            if let Some(rest) = trimmed.strip_prefix("変化") {
                let rest = rest.trim_start_matches(['：', ':', ' ', '　']);
                self.next_game_opened = false;
                self.variation(line_no, line, rest)?;
                continue;
            }
            if trimmed.starts_with("まで") {
                self.start(line_no)?;
                if self.b.in_main_line() && !self.b.is_dead() {
                    let stm = self.b.position().side_to_move();
                    if let Some(e) = summary_ending(trimmed, stm) {
                        // The summary names the side a terminal word only implies (the
                        // winner of a resignation out of turn).
                        let ending = match self.b.current_ending() {
                            Ending::None => e,
                            terminal => refine(terminal, e),
                        };
                        self.b.set_ending(ending);
                    }
                }
                continue;
            }
            if Reader::column_numbers(trimmed) {
                continue;
            }
            if trimmed.starts_with("手数") {
                // `手数----指手----消費時間--` starts the moves; `手数＝N` is a diagram note.
                if trimmed.contains("指手") {
                    self.note_a_game_opening();
                    self.start(line_no)?;
                }
                continue;
            }
            if self.started {
                // Board diagrams and headers after the moves began describe something else.
                if let Some((k, v)) = *split.get_or_init(|| header(trimmed)) {
                    if opens_a_game(k) {
                        self.note_a_game_opening();
                    }
                    if !k.ends_with("持駒") {
                        self.headers_after_start(k, v);
                    }
                }
                continue;
            }
            if line.starts_with('|') {
                self.board_row(line_no, line)?;
                continue;
            }
            if line.starts_with('+') || trimmed.starts_with('９') || trimmed.starts_with('9') {
                continue;
            }
            match trimmed {
                "先手番" | "下手番" => {
                    self.setup.side_to_move = Color::Sente;
                    self.have_side = true;
                    continue;
                }
                "後手番" | "上手番" => {
                    self.setup.side_to_move = Color::Gote;
                    self.have_side = true;
                    continue;
                }
                _ => {}
            }
            if let Some((k, v)) = *split.get_or_init(|| header(trimmed)) {
                self.header_line(line_no, line, k, v)?;
                continue;
            }
            // Anything else (free text) is kept as a start comment rather than refused.
            self.b.comment(trimmed);
        }
        self.flush_ki2();
        if !self.found {
            return Err(no_record(text));
        }
        self.start(0)?;
        let mut rec = self.b.finish();
        rec.headers = self.headers;
        Ok(rec)
    }

    /// Whether a line is the column numbers above a board diagram: nine
    /// digits and spaces.
    fn column_numbers(trimmed: &str) -> bool {
        // A move line usually ends in ASCII that is neither (`)`): no need
        // to look further. Otherwise one pass that stops at the first other
        // character (a move line's piece name), judging ASCII without
        // decoding.
        if let Some(&last) = trimmed.as_bytes().last() {
            if last.is_ascii() && !matches!(last, b'1'..=b'9' | b' ') {
                return false;
            }
        }
        let mut digits = 0;
        let mut rest = trimmed;
        while let Some(&b) = rest.as_bytes().first() {
            if b.is_ascii() {
                match b {
                    b'1'..=b'9' => digits += 1,
                    b' ' => {}
                    _ => return false,
                }
                rest = &rest[1..];
                continue;
            }
            let mut chars = rest.chars();
            match chars.next() {
                Some(c) if digit_value(c).is_some() => digits += 1,
                Some('　') => {}
                _ => return false,
            }
            rest = chars.as_str();
        }
        digits == 9
    }

    /// A line that opens a game: after this game's moves or end, the next game's.
    fn note_a_game_opening(&mut self) {
        let played = self.b.has_moves() || self.b.is_dead();
        if self.started && (played || !matches!(self.b.current_ending(), Ending::None)) {
            self.next_game_opened = true;
        }
    }

    fn headers_after_start(&mut self, k: &str, v: &str) {
        let opt = |v: &str| (!v.is_empty()).then(|| v.to_string());
        match k {
            "先手" | "下手" if self.headers.sente.is_none() => self.headers.sente = opt(v),
            "後手" | "上手" if self.headers.gote.is_none() => self.headers.gote = opt(v),
            "終了日時" => self.headers.end_time = opt(v),
            _ => self.headers.other.push((k.to_string(), v.to_string())),
        }
    }
}

/// Writes a KIF board diagram (BOD) of `pos`.
#[must_use]
pub fn board_diagram(pos: &Position) -> String {
    crate::bod::write(pos)
}

fn clock(secs: u32) -> String {
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// A line still to be written: its first ply, the position and previous destination before it,
/// both players' total times so far, and its moves.
struct Branch {
    ply: usize,
    pos: Position,
    last_to: Option<Square>,
    totals: [u32; 2],
    line: Vec<Node>,
}

/// Writes one line of moves; returns how many were written and the side to move after them.
fn write_line(
    out: &mut String,
    branch: Branch,
    ending: Option<Ending>,
    pending: &mut Vec<Branch>,
) -> (usize, Color) {
    let Branch {
        ply: start_ply,
        mut pos,
        mut last_to,
        mut totals,
        line,
    } = branch;
    let mut written = 0;
    for (i, node) in line.iter().enumerate() {
        let ply = start_ply + i;
        if pos.check_move(node.mv).is_err() {
            break;
        }
        // Pushed so that the stack pops the latest ply first and, within a ply, the first alternative first.
        for v in node.variations.iter().rev() {
            pending.push(Branch {
                ply,
                pos: pos.clone(),
                last_to,
                totals,
                line: v.clone(),
            });
        }
        let text = kif_move::write(&pos, node.mv, last_to);
        let side = pos.side_to_move().index();
        let _ = write!(out, "{ply:>4} {text}");
        if let Some(t) = node.time {
            totals[side] = totals[side].saturating_add(t);
            let pad = MOVE_COLUMN_WIDTH
                .saturating_sub(display_width(&text))
                .max(1);
            let _ = write!(
                out,
                "{:pad$}({:>2}:{:02}/{})",
                "",
                t / 60,
                t % 60,
                clock(totals[side])
            );
        }
        out.push('\n');
        for c in &node.comments {
            let _ = writeln!(out, "*{c}");
        }
        pos.make_move(node.mv);
        last_to = Some(node.mv.to());
        written += 1;
    }
    if let Some(word) = ending.and_then(|e| terminal_word(e, pos.side_to_move())) {
        let _ = writeln!(out, "{:>4} {word}", start_ply + written);
    }
    (written, pos.side_to_move())
}

/// The display width of the move column before the time, as Kifu for
/// Windows and most KIF files write it: `７六歩(77)` (width 10) is followed by
/// three spaces, `５五角打` (width 8) by five.
const MOVE_COLUMN_WIDTH: usize = 13;

/// Display width in a fixed-width font: full-width text (kanji, `７`, `　`)
/// counts 2, ASCII 1.
fn display_width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// Writes `rec` as KIF text (declared as UTF-8).
#[must_use]
pub fn write(rec: &Record) -> String {
    write_with(rec, Encoding::Utf8)
}

/// Writes `rec` as KIF text whose first line declares `enc`.
#[must_use]
pub fn write_with(rec: &Record, enc: Encoding) -> String {
    let mut out = String::new();
    preamble::write(&mut out, rec, "KIF", enc);
    out.push_str("手数----指手---------消費時間--\n");
    let mut pending = Vec::new();
    let main = Branch {
        ply: 1,
        pos: rec.start.clone(),
        last_to: None,
        totals: [0, 0],
        line: rec.moves.clone(),
    };
    let (written, stm) = write_line(&mut out, main, Some(rec.ending), &mut pending);
    // The `まで…` summary as Kifu for Windows writes it: readers that ignore the terminal
    // word (cshogi) take the result from it, and it ends the main line for them.
    if let Some(s) = summary(rec.ending, written, stm, preamble::is_handicapped(rec)) {
        let _ = writeln!(out, "{s}");
    }
    // Variations depth first, each line's branches from its last ply backwards, so that every
    // `変化：N手` attaches to the most recent line that has a move N (as the reader expects).
    while let Some(branch) = pending.pop() {
        let _ = write!(out, "\n変化：{}手\n", branch.ply);
        let mut sub = Vec::new();
        let _ = write_line(&mut out, branch, None, &mut sub);
        pending.extend(sub);
    }
    out
}

/// Writes `rec` as KIF bytes in `enc` (`Shift_JIS` on request, UTF-8 otherwise).
#[must_use]
pub fn write_bytes(rec: &Record, enc: Encoding) -> Vec<u8> {
    encoding::encode(&write_with(rec, enc), enc)
}

impl Reader<'_> {
    /// Whether a line is free text (kept as a comment) or a header this
    /// reader does not know, rather than something records are made of.
    ///
    /// `split` keeps the line's [`header`] split once it is asked for, so
    /// that the reader does not split a header line twice.
    fn classify<'t>(trimmed: &'t str, split: &OnceCell<Option<(&'t str, &'t str)>>) -> bool {
        if trimmed.is_empty() || trimmed.starts_with(['#', '&', '*']) {
            return true;
        }
        if trimmed.starts_with(|c: char| c.is_ascii_digit() || digit_value(c).is_some())
            || trimmed.starts_with(['▲', '△', '☗', '☖', '▼', '▽', '|', '+'])
            || trimmed.starts_with("まで")
            || trimmed.starts_with("変化")
            || trimmed.starts_with("手数")
            || matches!(trimmed, "先手番" | "下手番" | "後手番" | "上手番")
        {
            return false;
        }
        match *split.get_or_init(|| header(trimmed)) {
            Some((k, _)) => !KNOWN_HEADERS.contains(&k) && !k.ends_with("持駒"),
            None => true,
        }
    }
}

/// The header keys of KIF and KI2 (Kifu for Windows' list and the common extras).
const KNOWN_HEADERS: [&str; 24] = [
    "開始日時",
    "終了日時",
    "対局日",
    "棋戦",
    "戦型",
    "表題",
    "持ち時間",
    "消費時間",
    "場所",
    "掲載",
    "備考",
    "先手",
    "後手",
    "下手",
    "上手",
    "手合割",
    "手合",
    "作品番号",
    "作品名",
    "作者",
    "発表誌",
    "発表年月",
    "手数",
    "先手省略名",
];

/// The error for a text with nothing of a record in it, at its first non-blank line.
fn no_record(text: &str) -> ReadError {
    let first = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty());
    match first {
        Some((i, l)) => {
            let token: String = l.trim().chars().take(40).collect();
            ReadError::at(i + 1, l, &token, ReadErrorKind::NoRecord)
        }
        None => ReadError::new(0, 0, "", ReadErrorKind::NoRecord),
    }
}

#[cfg(test)]
mod tests {
    use shogi_core::{Move, Position};

    use super::Reader;
    use crate::encoding::Encoding;
    use crate::record::Record;

    /// Two games one after the other in one KIF or KI2 file: the second is
    /// refused at its first move line (it was added to the first game's
    /// moves); a variation after the ending, and moves after an adjourned
    /// or broken-off game, still read.
    #[test]
    fn a_second_game_after_the_end_is_refused() {
        let first =
            "先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
        let second = "\n先手：C\n後手：D\n手数----指手---------消費時間--\n   1 ２六歩(27)\n";
        for end in [
            "   3 投了\n",
            "   3 詰み\n",
            "まで2手で後手の勝ち\n",
            "   3 千日手\n",
        ] {
            let text = format!("{first}{end}{second}");
            let err = super::read(&text).expect_err(end);
            assert_eq!(
                (err.line, err.kind.code(), err.token.as_str()),
                (text.lines().count(), "several_records", "1 ２六歩(27)"),
                "{end}"
            );
        }
        let ki2 = "先手：A\n後手：B\n▲７六歩 △３四歩 ▲投了\nまで2手で後手の勝ち\n\n先手：C\n▲２六歩 △８四歩\n";
        let err = super::read(ki2).expect_err("KI2");
        assert_eq!((err.line, err.kind.code()), (7, "several_records"));
        // Not a second game: a variation, or a game that goes on.
        let variation =
            format!("{first}   3 投了\nまで2手で後手の勝ち\n\n変化：2手\n   2 ８四歩(83)\n");
        assert_eq!(
            super::read(&variation).expect("variation").moves[1]
                .variations
                .len(),
            1
        );
        for pause in ["   3 封じ手\n", "   3 中断\n"] {
            let text = format!("{first}{pause}   3 ２六歩(27)\n");
            assert_eq!(super::read(&text).expect(pause).moves.len(), 3, "{pause}");
        }
    }

    /// The next game found after a variation block, or after a game that
    /// has no ending: where its headers open it (or, with no header, where
    /// a KIF move is numbered 1 after the end); a variation of the first
    /// move, an end time after the moves, and a header among the moves of
    /// one game are not another game.
    #[test]
    fn a_second_game_after_a_variation_or_no_ending_is_refused() {
        let first =
            "先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
        let ended = format!("{first}   3 投了\n\n変化：2手\n   2 ８四歩(83)\n");
        let refused = |text: &str, token: &str| {
            let err = super::read(text).expect_err(text);
            assert_eq!(
                (err.kind.code(), err.token.as_str()),
                ("several_records", token),
                "{text}"
            );
            assert_eq!(
                text.lines().nth(err.line - 1).map(str::trim),
                Some(token),
                "{text}"
            );
        };
        for next in [
            "\n先手：C\n   1 ２六歩(27)\n",
            "\n手数----指手---------消費時間--\n   1 ２六歩(27)\n",
            "   1 ２六歩(27)\n",
        ] {
            refused(&format!("{ended}{next}"), "1 ２六歩(27)");
        }
        // No ending: a header, then a move numbered 1.
        refused(
            &format!("{first}\n開始日時：2026/01/02\n   1 ２六歩(27)\n"),
            "1 ２六歩(27)",
        );
        let ki2 = "先手：A\n▲７六歩 △３四歩\n\n先手：C\n▲２六歩\n";
        refused(ki2, "▲２六歩");
        let ki2 = "先手：A\n▲７六歩 △３四歩 ▲投了\n\n変化：2手\n△８四歩\n\n後手：D\n▲２六歩\n";
        refused(ki2, "▲２六歩");
        // One game.
        let first_move = format!("{first}   3 投了\n\n変化：1手\n   1 ２六歩(27)\n");
        let rec = super::read(&first_move).expect("a variation of the first move");
        assert_eq!(rec.moves[0].variations.len(), 1);
        let end_time =
            format!("{first}   3 投了\n終了日時：2026/01/02\n\n変化：2手\n   2 ８四歩(83)\n");
        let rec = super::read(&end_time).expect("an end time above a variation");
        assert_eq!(rec.moves[1].variations.len(), 1);
        let among = format!("{first}棋戦：Club\n   3 ２六歩(27)\n");
        assert_eq!(
            super::read(&among)
                .expect("a header among the moves")
                .moves
                .len(),
            3
        );
    }

    fn read_with(text: &str, lookahead_only: bool) -> String {
        let mut r = Reader::new();
        r.lookahead_only = lookahead_only;
        format!("{:?}", r.run(text))
    }

    /// KI2 moves with a single reading are played at once, without the
    /// look-ahead; random games written without their relative markers
    /// (so that many moves are ambiguous), some with a move left out, read
    /// the same both ways.
    #[test]
    fn ki2_moves_read_alike_with_and_without_the_fast_path() {
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15_u64);
        let mut ambiguous_games = 0;
        for game in 0..300 {
            let mut pos = Position::startpos();
            let mut rec = Record::new(pos.clone());
            let plies = 20 + next() % 160;
            for _ in 0..plies {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m: Move = legal[(next() % legal.len() as u64) as usize];
                pos.make_move(m);
                rec.push(m);
            }
            let per_line = 1 + (next() % 8) as usize;
            let text = crate::ki2::write_lines(&rec, Encoding::Utf8, per_line);
            let mut stripped: String = text
                .chars()
                .filter(|c| !matches!(c, '右' | '左' | '直' | '上' | '引' | '寄'))
                .collect();
            if game % 3 == 0 {
                // Leave one move out: the line turns illegal or takes another reading.
                let marks: Vec<usize> =
                    stripped.match_indices(['▲', '△']).map(|(i, _)| i).collect();
                if marks.len() > 2 {
                    let k = 1 + (next() as usize) % (marks.len() - 2);
                    stripped.replace_range(marks[k]..marks[k + 1], "");
                }
            }
            let fast = read_with(&stripped, false);
            assert_eq!(fast, read_with(&stripped, true), "{stripped}");
            if stripped != text && fast != format!("{:?}", super::read(&text)) {
                ambiguous_games += 1;
            }
        }
        // The markers mattered in some games: the look-ahead was exercised.
        assert!(ambiguous_games > 0);
    }

    /// A terminal word ends its block of KI2 lines and an illegal move its
    /// line, whether the moves before were played at once or looked ahead.
    #[test]
    fn terminal_words_and_illegal_moves_end_a_ki2_block_both_ways() {
        for text in [
            "▲７六歩 △投了 ▲２六歩\n",
            "▲７六歩 △投了\n▲２六歩\n*c\n▲２六歩\n",
            "▲７六歩 △３三歩 ▲２六歩\n*c\n",
            "▲７六歩 △３四歩 ▲２二角成 △同銀 ▲投了\n",
        ] {
            assert_eq!(read_with(text, false), read_with(text, true), "{text}");
        }
    }
}

#[cfg(test)]
mod time_tests {
    use proptest::prelude::*;

    use crate::notation::japanese::digit_value;

    /// What `column_numbers` did in two passes over the characters.
    fn column_numbers_by_chars(trimmed: &str) -> bool {
        trimmed
            .chars()
            .all(|c| digit_value(c).is_some() || c == ' ' || c == '　')
            && trimmed
                .chars()
                .filter(|&c| digit_value(c).is_some())
                .count()
                == 9
    }

    proptest! {
        #[test]
        fn column_numbers_agree_with_the_character_test(
            line in "[0-9１-９一二三四五六七八九十 　歩(a]{0,14}"
        ) {
            prop_assert_eq!(super::Reader::column_numbers(&line), column_numbers_by_chars(&line));
        }
    }

    proptest! {
        #[test]
        fn next_mark_agrees_with_a_character_search(s in "[▲△▼▽☗☖…─a７歩 ]{0,10}", from in 0usize..4) {
            let b = s.as_bytes();
            let by_chars = s
                .char_indices()
                .find(|&(i, c)| i >= from && matches!(c, '▲' | '△' | '▼' | '▽' | '☗' | '☖'))
                .map_or(b.len(), |(i, _)| i);
            if s.is_char_boundary(from.min(b.len())) {
                prop_assert_eq!(super::next_mark(b, from), by_chars);
            }
        }
    }

    /// What `header` did before it judged the key's whitespace by bytes.
    fn header_by_chars(line: &str) -> Option<(&str, &str)> {
        let (k, v) = if let Some(i) = line.find('：') {
            (&line[..i], &line[i + '：'.len_utf8()..])
        } else {
            let i = line.find(':')?;
            (&line[..i], &line[i + 1..])
        };
        let k = k.trim();
        if k.is_empty() || k.chars().any(char::is_whitespace) {
            return None;
        }
        Some((k, v.trim_matches([' ', '　', '\t'])))
    }

    proptest! {
        #[test]
        fn header_agrees_with_the_character_reading(
            line in "[ 　\t\u{a0}\u{2003}\u{85}\u{b}先手の持駒、「a:：x]{0,12}"
        ) {
            prop_assert_eq!(super::header(&line), header_by_chars(&line));
        }
    }

    #[test]
    fn column_numbers_are_recognised() {
        for line in [
            "９ ８ ７ ６ ５ ４ ３ ２ １",
            "9 8 7 6 5 4 3 2 1",
            "１２３４５６７８９",
            "1 ７六歩(77)",
        ] {
            assert_eq!(
                super::Reader::column_numbers(line),
                column_numbers_by_chars(line),
                "{line}"
            );
        }
    }

    /// What `move_time` did before its ASCII fast path.
    fn general(rest: &str) -> Option<u32> {
        let open = rest.find('(')?;
        let inner = &rest[open + 1..];
        let slash = inner.find('/')?;
        let mut secs: u32 = 0;
        for part in inner[..slash].trim().split(':') {
            secs = secs
                .checked_mul(60)?
                .checked_add(part.trim().parse::<u32>().ok()?)?;
        }
        Some(secs)
    }

    proptest! {
        #[test]
        fn move_time_agrees_with_the_general_reading(
            rest in "[ (]{0,3}[ 0-9:\u{3000}\t+]{0,14}[/)]?[ 0-9:/)]{0,6}"
        ) {
            prop_assert_eq!(super::move_time(&rest), general(&rest));
        }
    }

    #[test]
    fn move_time_reads_the_usual_forms() {
        for rest in [
            "   ( 0:01/00:00:01)",
            "( 1:30/)",
            "(99999999999:0/)",
            "( :1/)",
            "(1 2:3/)",
            "( 0:4294967295/)",
            "( 71582788:16/)",
            "(\u{3000}0:01/)",
            "(+1:00/)",
        ] {
            assert_eq!(super::move_time(rest), general(rest), "{rest:?}");
        }
    }
}
