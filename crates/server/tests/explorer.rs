//! The opening explorer and the collections (docs/EXPLORER.md): the
//! explorer's counts equal a count made directly over the games
//! (transpositions included), unfiltered and filtered by time class,
//! rating and period (whole months and bands or not), duplicates are skipped, a private collection
//! is invisible to others, and the site's own games join the `site`
//! collection once over.

mod common;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write as _;

use common::{account, local, seek_game, TempDir, TestServer};
use proptest::prelude::*;
use serde_json::{json, Value};
use shogi_core::{Color, Move, Position};
use shogi_server::calendar::{days_from_civil, DAY_MS, UNDATED_MS};
use shogi_server::db::explorer::{CountsSlice, GameFilter, Order};
use shogi_server::db::Store;
use shogi_server::explorer::import::{self, SourceFile};
use shogi_server::explorer::query::{self, ExplorerRequest};
use shogi_server::ratings::TimeClass;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A game as the test writes it: moves, players, whether the side to move
/// resigned at the end (else the record just stops), the players' ratings,
/// the day (`None`: the record names none) and the time control.
#[derive(Clone, Debug)]
struct Game {
    moves: Vec<Move>,
    sente: String,
    gote: String,
    resigned: bool,
    ratings: Option<(i64, i64)>,
    day: Option<(i64, u32, u32)>,
    class: Option<TimeClass>,
}

/// Main time a side for each class, no byoyomi (bullet: under 3 minutes,
/// blitz 3 to 10, rapid 10 to 35, classical 35 and more).
const CLASS_LIMITS: [(TimeClass, &str); 4] = [
    (TimeClass::Bullet, "00:01+00"),
    (TimeClass::Blitz, "00:05+00"),
    (TimeClass::Rapid, "00:20+00"),
    (TimeClass::Classical, "01:00+00"),
];

impl Game {
    /// When the game was played, as the database keeps it.
    fn played_at_ms(&self) -> i64 {
        self.day
            .map_or(UNDATED_MS, |(y, m, d)| days_from_civil(y, m, d) * DAY_MS)
    }

    /// Whether the explorer's filter `f` counts this game, decided here.
    fn passes(&self, f: &GameFilter) -> bool {
        // Both ratings are positive: the half of the sum, rounded down.
        let avg = self.ratings.map(|(s, g)| i64::midpoint(s, g));
        let t = self.played_at_ms();
        // A period holds only the games with a date.
        let period = f.since_ms.is_some() || f.until_ms.is_some();
        (!period || self.day.is_some())
            && f.time_class.is_none_or(|c| self.class == Some(c))
            && f.min_rating.is_none_or(|r| avg.is_some_and(|a| a >= r))
            && f.max_rating.is_none_or(|r| avg.is_some_and(|a| a <= r))
            && f.since_ms.is_none_or(|s| t >= s)
            && f.until_ms.is_none_or(|u| t < u)
    }
}

/// Plays `choices` from the start: each picks one of the first four legal
/// moves (in USI order) of its position, so that games share openings and
/// reach the same positions by different orders.
fn play(choices: &[u8]) -> Vec<Move> {
    let mut pos = Position::startpos();
    let mut out = Vec::new();
    for &c in choices {
        let mut legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        legal.sort_by_key(ToString::to_string);
        legal.truncate(4);
        let m = legal[usize::from(c) % legal.len()];
        pos.make_move(m);
        out.push(m);
    }
    out
}

/// The game in CSA, written here from the moves (not by the record crate).
fn csa(g: &Game) -> String {
    let mut pos = Position::startpos();
    let mut text = format!("V2.2\nN+{}\nN-{}\n", g.sente, g.gote);
    if let Some((y, m, d)) = g.day {
        text += &format!("$START_TIME:{y:04}/{m:02}/{d:02} 10:00:00\n");
    }
    if let Some((s, r)) = g.ratings {
        text += &format!("$sente_rating:{s}\n$gote_rating:{r}\n");
    }
    if let Some(c) = g.class {
        let limit = CLASS_LIMITS.iter().find(|(k, _)| *k == c).unwrap().1;
        text += &format!("$TIME_LIMIT:{limit}\n");
    }
    text += "PI\n+\n";
    for &m in &g.moves {
        let side = if pos.side_to_move() == Color::Sente {
            '+'
        } else {
            '-'
        };
        let (from, to, kind) = match m {
            Move::Board { from, to, promote } => {
                let piece = pos.piece_at(from).unwrap();
                let kind = if promote {
                    piece.kind.promoted_or_self()
                } else {
                    piece.kind
                };
                (
                    format!("{}{}", from.file().number(), from.rank().number()),
                    to,
                    kind,
                )
            }
            Move::Drop { kind, to } => ("00".to_owned(), to, kind.piece_kind()),
        };
        text += &format!(
            "{side}{from}{}{}{}\n",
            to.file().number(),
            to.rank().number(),
            kind.csa()
        );
        pos.make_move(m);
    }
    if g.resigned {
        text += "%TORYO\n";
    }
    text
}

/// Games, Sente's wins, Gote's wins and the latest day played (in Unix
/// milliseconds, `UNDATED_MS` when no game has a date).
type Counts = (u64, u64, u64, i64);

/// What the explorer should say of each position, counted game by game
/// over the games `filter` passes: per position key, per next move (0: the
/// game ended there), its [`Counts`].
fn direct_counts(games: &[Game], filter: &GameFilter) -> HashMap<u64, BTreeMap<u16, Counts>> {
    let mut out: HashMap<u64, BTreeMap<u16, Counts>> = HashMap::new();
    let mut distinct = HashSet::new();
    for g in games {
        // A duplicate (same moves and names) is skipped, its first copy kept.
        if !distinct.insert((
            g.moves.clone(),
            g.sente.to_lowercase(),
            g.gote.to_lowercase(),
        )) || !g.passes(filter)
        {
            continue;
        }
        let to_move = if g.moves.len() % 2 == 0 {
            Color::Sente
        } else {
            Color::Gote
        };
        let loser = g.resigned.then_some(to_move);
        for (hash, next) in first_reached(&g.moves) {
            let c = out
                .entry(hash)
                .or_default()
                .entry(next)
                .or_insert((0, 0, 0, UNDATED_MS));
            c.0 += 1;
            c.3 = c.3.max(g.played_at_ms());
            match loser {
                Some(Color::Gote) => c.1 += 1,
                Some(Color::Sente) => c.2 += 1,
                None => {}
            }
        }
    }
    out
}

/// Each position a game reached, once, where it first reached it: its key
/// and the move then played (0 where the game ended), in order.
fn first_reached(moves: &[Move]) -> Vec<(u64, u16)> {
    let mut pos = Position::startpos();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for i in 0..=moves.len() {
        let next = moves.get(i).map_or(0, |m| m.to_u16());
        if seen.insert(pos.hash()) {
            out.push((pos.hash(), next));
        }
        if let Some(&m) = moves.get(i) {
            pos.make_move(m);
        }
    }
    out
}

fn games_strategy() -> impl Strategy<Value = Vec<Game>> {
    // Few months and a narrow range of ratings, so that the filters'
    // edges fall among the games.
    let rating = prop::option::of((1350i64..1750, 1350i64..1750));
    // One game in five without a date.
    let day = prop::option::weighted(0.8, (2025i64..2026, 1u32..5, 1u32..29));
    let class = prop::option::of(0usize..4);
    prop::collection::vec(
        (
            prop::collection::vec(0u8..4, 0..9),
            0usize..3,
            0usize..3,
            any::<bool>(),
            rating,
            day,
            class,
        ),
        1..14,
    )
    .prop_map(|specs| {
        let names = ["Alice", "Борис", "ALICE"];
        specs
            .into_iter()
            .map(|(choices, s, g, resigned, ratings, day, class)| Game {
                moves: play(&choices),
                sente: names[s].to_owned(),
                gote: names[g].to_owned(),
                resigned,
                ratings,
                day,
                class: class.map(|i| CLASS_LIMITS[i].0),
            })
            .collect::<Vec<_>>()
    })
    .prop_map(|mut games| {
        // Duplicates (same moves and names) get the first one's ratings,
        // day and time control, whichever of them the import keeps.
        for i in 0..games.len() {
            let key = |g: &Game| {
                (
                    g.moves.clone(),
                    g.sente.to_lowercase(),
                    g.gote.to_lowercase(),
                )
            };
            if let Some(j) = (0..i).find(|&j| key(&games[j]) == key(&games[i])) {
                let first = games[j].clone();
                let g = &mut games[i];
                (g.ratings, g.day, g.class) = (first.ratings, first.day, first.class);
            }
        }
        games
    })
}

/// Filters of the explorer: some keep to whole months and hundreds of
/// rating points (summed from the count rows), some do not (counted game
/// by game).
fn filters_strategy() -> impl Strategy<Value = Vec<GameFilter>> {
    let day = (
        2025i64..2026,
        1u32..6,
        prop_oneof![3 => Just(1u32), 1 => 2u32..29],
    );
    let ms = |(y, m, d): (i64, u32, u32)| days_from_civil(y, m, d) * DAY_MS;
    let min = prop_oneof![3 => (13i64..18).prop_map(|h| h * 100), 1 => 1300i64..1800];
    let max = prop_oneof![3 => (13i64..18).prop_map(|h| h * 100 + 99), 1 => 1300i64..1800];
    let class = prop::option::of(0usize..4);
    prop::collection::vec(
        (
            class,
            prop::option::of(min),
            prop::option::of(max),
            prop::option::of(day.clone()),
            prop::option::of(day),
        ),
        1..8,
    )
    .prop_map(move |fs| {
        fs.into_iter()
            .map(|(class, min_rating, max_rating, since, until)| GameFilter {
                time_class: class.map(|i| CLASS_LIMITS[i].0),
                min_rating,
                max_rating,
                since_ms: since.map(ms),
                until_ms: until.map(ms),
                ..GameFilter::default()
            })
            .collect()
    })
}

/// Imports `games` (as CSA files) into a new public collection `club`.
async fn import_into_club(store: &Store, games: &[Game]) -> import::Progress {
    import_into(store, "club", games).await
}

/// Imports `games` (as CSA files) into a new public collection `name`, in
/// three imports (so that the games of a later one reach positions one game
/// of an earlier one reached), with their progress summed.
async fn import_into(store: &Store, name: &str, games: &[Game]) -> import::Progress {
    store
        .create_collection(
            name,
            None,
            None,
            shogi_server::db::explorer::Privacy::Public,
            0,
        )
        .await
        .unwrap();
    let id = store.collection(name).await.unwrap().unwrap().id;
    let mut total = import::Progress::default();
    let third = games.len().div_ceil(3).max(1);
    for (k, part) in games.chunks(third).enumerate() {
        // One, two or three games a file: a CSA file may hold several
        // records, a line holding only `/` between them.
        let mut files: Vec<import::Input> = Vec::new();
        let mut rest = part;
        while !rest.is_empty() {
            let n = (files.len() % 3 + 1).min(rest.len());
            let (these, later) = rest.split_at(n);
            let text: Vec<String> = these.iter().map(csa).collect();
            files.push(import::Input::from(SourceFile {
                name: format!("{k}-{}.csa", files.len()),
                bytes: text.join("/\n").into_bytes(),
            }));
            rest = later;
        }
        let done = import::import(store, id, files, import::BULK_WRITE_POSITIONS, |_| {})
            .await
            .unwrap();
        total.added += done.added;
        total.duplicates += done.duplicates;
        total.unreadable.extend(done.unreadable);
    }
    total
}

async fn check_counts(games: Vec<Game>, filters: Vec<GameFilter>) {
    let tmp = TempDir::new("explorer-counts");
    let store = Store::open(&tmp.db()).await.unwrap();
    // Half the games in another collection first: their positions are
    // counted there, not in the club's answers.
    let other = import_into(&store, "other", &games[..games.len() / 2]).await;
    assert!(other.unreadable.is_empty(), "{:?}", other.unreadable);
    let done = import_into_club(&store, &games).await;
    let want = direct_counts(&games, &GameFilter::default());
    let distinct: usize = want
        .get(&Position::startpos().hash())
        .map_or(0, |m| m.values().map(|c| c.0).sum::<u64>() as usize);
    assert_eq!(done.added, distinct, "{done:?}");
    assert_eq!(done.added + done.duplicates, games.len());
    assert!(done.unreadable.is_empty(), "{:?}", done.unreadable);

    // Every position any game reached, asked by its SFEN.
    let mut positions = Vec::new();
    for g in &games {
        let mut pos = Position::startpos();
        positions.push(pos.to_sfen());
        for &m in &g.moves {
            pos.make_move(m);
            positions.push(pos.to_sfen());
        }
    }
    positions.sort();
    positions.dedup();
    for filter in std::iter::once(GameFilter::default()).chain(filters) {
        let want = direct_counts(&games, &filter);
        for sfen in &positions {
            let req = ExplorerRequest {
                sfen: sfen.clone(),
                collection: Some("club".into()),
                filter: filter.clone(),
                order: Order::Recent,
                limit: 100,
            };
            let a = query::explore(&store, None, &req).await.unwrap();
            let none = BTreeMap::new();
            let expected = want.get(&a.position.hash()).unwrap_or(&none);
            let counts = |c: &shogi_server::db::explorer::MoveCounts| {
                (c.games, c.sente_wins, c.gote_wins, c.last_played_ms)
            };
            let mut got: BTreeMap<u16, Counts> = a
                .moves
                .iter()
                .map(|m| (m.mv.to_u16(), counts(&m.counts)))
                .collect();
            if a.ended.games > 0 {
                got.insert(0, counts(&a.ended));
            }
            let sliced = CountsSlice::of(&filter).is_some();
            assert_eq!(&got, expected, "{sfen} {filter:?} (summed: {sliced})");
            assert_eq!(
                a.total,
                expected.values().map(|c| c.0).sum::<u64>(),
                "{sfen} {filter:?}"
            );
            // The games listed are the games through it, each once, the
            // newest first and those without a date last.
            let ids: HashSet<&str> = a.games.iter().map(|g| g.id.as_str()).collect();
            assert_eq!(ids.len() as u64, a.total, "{sfen} {filter:?}");
            assert!(
                a.games
                    .windows(2)
                    .all(|w| w[0].played_at_ms >= w[1].played_at_ms),
                "{sfen} {filter:?}"
            );
            // By rating: the same games, the highest average first, unrated last.
            let req = ExplorerRequest {
                order: Order::Rating,
                ..req
            };
            let r = query::explore(&store, None, &req).await.unwrap();
            let by_rating: HashSet<&str> = r.games.iter().map(|g| g.id.as_str()).collect();
            assert_eq!(by_rating, ids, "{sfen} {filter:?}");
            let averages: Vec<i64> = r
                .games
                .iter()
                .map(|g| match (g.sente_rating, g.gote_rating) {
                    (Some(s), Some(g)) => s + g,
                    _ => -1,
                })
                .collect();
            assert!(
                averages.windows(2).all(|w| w[0] >= w[1]),
                "{sfen} {filter:?}: {averages:?}"
            );
        }
    }
    store.close().await;
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]
    #[test]
    fn explorer_counts_equal_a_direct_count_over_the_games(
        games in games_strategy(),
        filters in filters_strategy(),
    ) {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(check_counts(games, filters));
    }
}

/// Two imports into two collections at once (interleaved statement by
/// statement on PostgreSQL, where each has its own connection): every
/// position's count is still every game through it, a position reached
/// first by one game of each import included.
#[tokio::test]
async fn imports_at_once_count_every_game() {
    let tmp = TempDir::new("explorer-at-once");
    let store = Store::open(&tmp.db()).await.unwrap();
    let game = |i: usize, side: &str| Game {
        moves: play(&[
            (i % 4) as u8,
            (i / 4 % 4) as u8,
            (i % 3) as u8,
            (i / 3 % 4) as u8,
            (i / 2 % 4) as u8,
        ]),
        sente: format!("{side}{i}"),
        gote: format!("{side}-gote"),
        resigned: i.is_multiple_of(2),
        ratings: None,
        day: Some((2025, 3, 1)),
        class: None,
    };
    let a: Vec<Game> = (0..24).map(|i| game(i, "a")).collect();
    let b: Vec<Game> = (0..24).map(|i| game(i * 7 % 24, "b")).collect();
    let (da, db) = tokio::join!(import_into(&store, "a", &a), import_into(&store, "b", &b));
    assert_eq!((da.added, db.added), (24, 24));
    let both: Vec<Game> = a.iter().chain(&b).cloned().collect();
    let want = direct_counts(&both, &GameFilter::default());
    for g in &both {
        let mut pos = Position::startpos();
        for i in 0..=g.moves.len() {
            let req = ExplorerRequest {
                sfen: pos.to_sfen(),
                collection: Some("a,b".into()),
                filter: GameFilter::default(),
                order: Order::Recent,
                limit: 0,
            };
            let got = query::explore(&store, None, &req).await.unwrap();
            let total: u64 = want[&pos.hash()].values().map(|c| c.0).sum();
            assert_eq!(got.total, total, "{}", pos.to_sfen());
            if let Some(&mv) = g.moves.get(i) {
                pos.make_move(mv);
            }
        }
    }
    store.close().await;
}

/// How many count rows the games have when every position has them: the
/// distinct (position, month, class, band, move) where a game first
/// reached a position.
fn count_keys(games: &[Game]) -> usize {
    let mut keys = HashSet::new();
    for g in games {
        let avg = g.ratings.map_or(-1, |(s, g)| i64::midpoint(s, g) / 100);
        let month = g.day.map_or(0, |(y, m, _)| y * 100 + i64::from(m));
        let class = g.class.map_or(0, |c| c as i64 + 1);
        for (hash, next) in first_reached(&g.moves) {
            keys.insert((hash, month, class, avg, next));
        }
    }
    keys.len()
}

/// The count rows migration 0023 computes from the games in SQL (month,
/// time class, band), less those of positions one game reached (migration
/// 0024), are the rows the import writes.
#[tokio::test]
async fn the_migration_counts_the_rows_the_import_writes() {
    let tmp = TempDir::new("explorer-migration");
    let location = tmp.db();
    let store = Store::open(&location).await.unwrap();
    // Days at the edges of months and of the years the dates may have,
    // ratings whose average is odd, every class and none.
    let days = [
        Some((1709, 2, 28)),
        Some((1969, 12, 31)),
        Some((1970, 1, 1)),
        Some((2024, 2, 29)),
        Some((2025, 12, 31)),
        Some((2026, 1, 1)),
        Some((1000, 1, 1)),
        Some((9999, 12, 31)),
        None,
    ];
    let ratings = [
        None,
        Some((1499, 1500)),
        Some((1500, 1501)),
        Some((0, 1)),
        Some((9999, 9999)),
    ];
    let mut games = Vec::new();
    for (i, &day) in days.iter().enumerate() {
        for (j, &r) in ratings.iter().enumerate() {
            let choices: Vec<u8> = [i, j, i + j, i * j]
                .iter()
                .map(|&c| (c % 4) as u8)
                .collect();
            games.push(Game {
                moves: play(&choices),
                sente: format!("S{i}"),
                gote: format!("G{j}"),
                resigned: (i + j) % 2 == 0,
                ratings: r,
                day,
                class: ((i + j) % 5 < 4).then(|| CLASS_LIMITS[(i + j) % 5].0),
            });
        }
    }
    // And one game going on where no other does.
    games.push(Game {
        moves: play(&[3, 2, 1, 0, 3, 2, 1, 0]),
        ..games[0].clone()
    });
    let done = import_into_club(&store, &games).await;
    assert_eq!(done.added, games.len(), "{done:?}");
    store.close().await;

    let pool = tmp.pool().await;
    let rows = || async {
        let rows = sqlx::query(
            "SELECT hash, collection, month, time_class, band, next, games, sente_wins, \
                 gote_wins, draws, rating_sum, rated_games, last_played \
             FROM explorer_counts ORDER BY hash, collection, month, time_class, band, next",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        rows.iter()
            .map(|r| {
                (0..13)
                    .map(|i| sqlx::Row::try_get::<i64, _>(r, i).unwrap())
                    .collect::<Vec<i64>>()
            })
            .collect::<Vec<_>>()
    };
    let written = rows().await;
    let all_counted = count_keys(&games);
    let months: HashSet<i64> = written.iter().map(|r| r[2]).collect();
    assert!(
        [1709 * 100 + 2, 1000 * 100 + 1, 9999 * 100 + 12]
            .iter()
            .all(|m| months.contains(m)),
        "{months:?}"
    );
    let bands: HashSet<i64> = written.iter().map(|r| r[4]).collect();
    assert_eq!(bands, HashSet::from([-1, 0, 14, 15, 99]));
    // Positions one game reached have no count rows; the start has each game's.
    let start = Position::startpos().hash().cast_signed();
    let at_start: i64 = written.iter().filter(|r| r[0] == start).map(|r| r[6]).sum();
    assert_eq!(at_start, games.len() as i64);
    assert!(
        written.len() < all_counted,
        "{} {all_counted}",
        written.len()
    );
    let (counts, shared) = match location {
        shogi_server::db::Location::Sqlite(_) => (
            include_str!("../migrations/0023_explorer_counts.sql"),
            include_str!("../migrations/0024_explorer_shared.sql"),
        ),
        shogi_server::db::Location::Postgres(_) => (
            include_str!("../migrations/postgres/0023_explorer_counts.sql"),
            include_str!("../migrations/postgres/0024_explorer_shared.sql"),
        ),
    };
    let insert = counts
        .split(';')
        .find(|stmt| stmt.contains("INSERT INTO explorer_counts"))
        .unwrap();
    sqlx::query("DELETE FROM explorer_counts")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query(insert).execute(&pool).await.unwrap();
    assert_eq!(rows().await.len(), all_counted);
    let delete = shared
        .split(';')
        .find(|stmt| stmt.contains("DELETE FROM explorer_counts"))
        .unwrap();
    sqlx::query(delete).execute(&pool).await.unwrap();
    assert_eq!(rows().await, written);
    pool.close().await;
}

/// `POST /api/collections` with `body` as `cookie`: the status and the answer.
async fn create_collection(ts: &TestServer, cookie: &str, body: Value) -> (u16, Value) {
    let (status, _, made) = ts
        .request_with("POST", "/api/collections", &[cookie], Some(&body))
        .await;
    (status, made)
}

/// A server on a database in `tmp` where account `alice` (her session
/// cookie returned) has made the public collection `name`.
async fn alice_with_collection(tmp: &TempDir, name: &str) -> (TestServer, String) {
    let ts = TestServer::start(&tmp.db()).await;
    let (alice, _) = account(&ts, "alice").await;
    let (status, made) = create_collection(&ts, &alice, json!({ "name": name })).await;
    assert_eq!(status, 201, "{made}");
    (ts, alice)
}

/// A ZIP archive of `files` (name, text).
fn zip(files: &[(&str, String)]) -> Vec<u8> {
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in files {
        out.start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        out.write_all(text.as_bytes()).unwrap();
    }
    out.finish().unwrap().into_inner()
}

/// A ZIP archive of `files` (raw name, contents) stored as they are, the
/// names without the UTF-8 flag, as Windows' compressed folders write them.
fn zip_raw_names(files: &[(&[u8], &[u8])]) -> Vec<u8> {
    let (mut out, mut central) = (Vec::new(), Vec::new());
    let u16le = |n: usize| u16::try_from(n).unwrap().to_le_bytes();
    let u32le = |n: usize| u32::try_from(n).unwrap().to_le_bytes();
    for (name, data) in files {
        let mut crc = flate2::Crc::new();
        crc.update(data);
        let offset = out.len();
        // Version 2.0, no flags, stored, 1980-01-01 00:00.
        let common = [
            &[20, 0, 0, 0, 0, 0, 0, 0, 0x21, 0][..],
            &crc.sum().to_le_bytes(),
            &u32le(data.len()),
            &u32le(data.len()),
            &u16le(name.len()),
            &[0, 0],
        ]
        .concat();
        out.extend([&b"PK\x03\x04"[..], &common, name, data].concat());
        central.extend(
            [
                &b"PK\x01\x02\x14\x00"[..],
                &common,
                &[0; 10],
                &u32le(offset),
                name,
            ]
            .concat(),
        );
    }
    let at = out.len();
    out.extend_from_slice(&central);
    out.extend(
        [
            &b"PK\x05\x06\0\0\0\0"[..],
            &u16le(files.len()),
            &u16le(files.len()),
            &u32le(central.len()),
            &u32le(at),
            &[0, 0],
        ]
        .concat(),
    );
    out
}

/// The import's report names each file of an archive made on a Japanese
/// or a Russian Windows (names in `Shift_JIS` or CP866, not flagged) as it
/// was named, not in the ZIP standard's code page 437.
#[tokio::test]
async fn an_archives_file_names_read_in_the_code_page_they_were_written_in() {
    let tmp = TempDir::new("explorer-zip-names");
    let (ts, alice) = alice_with_collection(&tmp, "names").await;
    let bad = b"PI\n+\n+7776FU\n-33ZZFU\n";
    // 将棋.kif in Shift_JIS, партия.csa in CP866.
    let files: [(&[u8], &[u8]); 2] = [
        (b"\x8f\xab\x8a\xfb.csa", bad),
        (b"\xaf\xa0\xe0\xe2\xa8\xef.csa", bad),
    ];
    let body = zip_raw_names(&files);
    let (status, lines) = upload(&ts, "/api/collections/names/import", &alice, &body).await;
    assert_eq!(status, 200, "{lines:?}");
    let last = lines.last().unwrap();
    let names: Vec<&str> = last["unreadable"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|u| u["file"].as_str())
        .collect();
    assert_eq!(
        names,
        ["upload.zip/将棋.csa", "upload.zip/партия.csa"],
        "{last}"
    );
}

/// `POST path` with `body` as `cookie`: the status and the progress lines
/// (the chunked body's JSON lines).
async fn upload(ts: &TestServer, path: &str, cookie: &str, body: &[u8]) -> (u16, Vec<Value>) {
    let addr = ts.addr();
    let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{cookie}\r\n\
         Content-Type: application/zip\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response);
    let status: u16 = text[9..12].parse().unwrap();
    let lines = text
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (status, lines)
}

fn kif_game(sente: &str, gote: &str, moves: &[&str]) -> String {
    resigned_game(sente, gote, moves, Some((2026, 1, 1)))
}

/// A game in CSA of `moves` (USI) played on `day`, the side to move
/// resigning at the end, without ratings or time control.
fn resigned_game(sente: &str, gote: &str, moves: &[&str], day: Option<(i64, u32, u32)>) -> String {
    Game {
        moves: moves.iter().map(|m| m.parse().unwrap()).collect(),
        sente: sente.into(),
        gote: gote.into(),
        resigned: true,
        ratings: None,
        day,
        class: None,
    }
    .pipe(|g| csa(&g))
}

trait Pipe: Sized {
    fn pipe<T>(self, f: impl FnOnce(Self) -> T) -> T {
        f(self)
    }
}
impl<T> Pipe for T {}

/// A record that names no day it was played has no date: listed after the
/// dated games with `"date": null`, never a move's "last played", in no
/// period (whole months from the count rows, or days counted game by game).
#[tokio::test]
async fn a_record_without_a_date_is_not_dated_the_day_of_its_import() {
    let tmp = TempDir::new("explorer-undated");
    let (ts, alice) = alice_with_collection(&tmp, "old").await;
    let game = |sente: &str, moves: &[&str], day| resigned_game(sente, "Gote", moves, day);
    let files = vec![
        (
            "dated.csa",
            game("Dated", &["7g7f", "3c3d"], Some((2017, 11, 11))),
        ),
        ("undated.csa", game("Undated", &["2g2f", "8c8d"], None)),
    ];
    let (status, lines) = upload(&ts, "/api/collections/old/import", &alice, &zip(&files)).await;
    assert_eq!(status, 200);
    assert_eq!(lines.last().unwrap()["added"], 2, "{lines:?}");
    let explore = |query: &'static str| {
        let ts = &ts;
        async move {
            let path = format!("/api/explorer?sfen=startpos&collection=old{query}");
            let (status, a) = ts.request("GET", &path, None).await;
            assert_eq!(status, 200, "{path}: {a}");
            a
        }
    };
    let a = explore("").await;
    assert_eq!(a["total"], 2, "{a}");
    assert_eq!(a["games"][0]["sente"], "Dated", "{a}");
    assert_eq!(a["games"][0]["date"], "2017-11-11", "{a}");
    assert_eq!(a["games"][1]["sente"], "Undated", "{a}");
    assert_eq!(a["games"][1]["date"], Value::Null, "{a}");
    let last = |a: &Value, usi: &str| {
        let m = a["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["usi"] == usi);
        m.map(|m| m["last_played"].clone())
    };
    assert_eq!(last(&a, "7g7f"), Some(json!("2017-11-11")), "{a}");
    assert_eq!(last(&a, "2g2f"), Some(Value::Null), "{a}");
    // Periods: whole months (the count rows) and days (game by game),
    // open at either end; none holds the undated game.
    for period in [
        "&since=2017",
        "&until=2017-12",
        "&since=2017-11-11",
        "&until=2017-11-30",
        "&since=1000&until=9999",
    ] {
        let a = explore(period).await;
        assert_eq!(a["total"], 1, "{period}: {a}");
        assert_eq!(last(&a, "2g2f"), None, "{period}: {a}");
    }
    let (_, found) = ts.request("GET", "/api/search?until=2018", None).await;
    let names: Vec<&str> = found["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["sente"].as_str())
        .collect();
    assert_eq!(names, ["Dated"], "{found}");
    let (_, found) = ts.request("GET", "/api/search?player=undated", None).await;
    assert_eq!(found["games"][0]["date"], Value::Null, "{found}");
}

#[tokio::test]
async fn an_upload_reports_progress_skips_duplicates_and_names_bad_files() {
    let tmp = TempDir::new("explorer-upload");
    let (ts, alice) = alice_with_collection(&tmp, "spb-2026").await;
    let files = vec![
        (
            "a/1.csa",
            kif_game("Иван", "Пётр", &["7g7f", "3c3d", "2g2f"]),
        ),
        (
            "a/2.csa",
            kif_game("Иван", "Олег", &["2g2f", "8c8d", "7g7f"]),
        ),
        ("a/bad.csa", "PI\n+\n+7776FU\n-33ZZFU\n".to_owned()),
        (
            "a/3.csa",
            kif_game("Иван", "Пётр", &["7g7f", "3c3d", "2g2f"]),
        ),
    ];
    let (status, lines) = upload(
        &ts,
        "/api/collections/spb-2026/import",
        &alice,
        &zip(&files),
    )
    .await;
    assert_eq!(status, 200);
    let last = lines.last().unwrap();
    assert_eq!(last["finished"], true, "{lines:?}");
    assert_eq!(last["files"], 4);
    assert_eq!(last["done"], 4);
    assert_eq!(last["added"], 2);
    assert_eq!(last["duplicates"], 1);
    let bad = &last["unreadable"][0];
    assert_eq!(bad["file"], "upload.zip/a/bad.csa");
    assert_eq!(
        (bad["line"].as_u64(), bad["column"].as_u64()),
        (Some(4), Some(1)),
        "{bad}"
    );
    assert!(
        bad["problem"].as_str().unwrap().contains("-33ZZFU"),
        "{bad}"
    );

    // The same archive again adds nothing.
    let (_, lines) = upload(
        &ts,
        "/api/collections/spb-2026/import",
        &alice,
        &zip(&files),
    )
    .await;
    assert_eq!(lines.last().unwrap()["added"], 0);
    assert_eq!(lines.last().unwrap()["duplicates"], 3);

    // The explorer counts the two games; 7g7f was played in both (by transposition in one).
    let (status, start) = ts
        .request(
            "GET",
            "/api/explorer?sfen=startpos&collection=spb-2026",
            None,
        )
        .await;
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["total"], 2);
    let after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    let (_, a) = ts
        .request(
            "GET",
            &format!(
                "/api/explorer?sfen={}&collection=spb-2026",
                after.replace(' ', "+")
            ),
            None,
        )
        .await;
    assert_eq!(a["total"], 1, "{a}");
    assert_eq!(a["moves"][0]["usi"], "3c3d");
    assert_eq!(a["moves"][0]["gote_wins"], 0);
    // A game of the list opens in the review.
    let id = a["games"][0]["id"].as_str().unwrap().to_owned();
    let (status, rec) = ts
        .request("GET", &format!("/api/games/{id}/record?format=json"), None)
        .await;
    assert_eq!(status, 200, "{rec}");
    assert_eq!(rec["headers"]["sente"], "Иван");
    // Search by player and by position.
    let (_, found) = ts
        .request("GET", "/api/search?player=%D0%BE%D0%BB%D0%B5%D0%B3", None)
        .await;
    assert_eq!(found["games"].as_array().unwrap().len(), 1, "{found}");
    let (_, found) = ts
        .request(
            "GET",
            &format!("/api/search?sfen={}", after.replace(' ', "+")),
            None,
        )
        .await;
    assert_eq!(found["games"].as_array().unwrap().len(), 1, "{found}");
    assert_eq!(found["games"][0]["ply"], 1);
    ts.shutdown().await;
}

/// A file of several records imports each as a game of its own, kept with
/// its own text: a CSA file (CSA's `/` line between records) and a KIF file
/// (one game after another, each with its headers); a record that does not
/// read is named by its line in the file, and the others still import.
#[tokio::test]
async fn a_file_of_several_records_imports_each() {
    let tmp = TempDir::new("explorer-several");
    let ts = TestServer::start(&tmp.db()).await;
    let (alice, _) = account(&ts, "alice").await;
    let games = [
        kif_game("Anna", "Boris", &["7g7f", "3c3d"]),
        kif_game("Boris", "Anna", &["2g2f", "8c8d", "2f2e"]),
        kif_game("Anna", "Vera", &["5g5f"]),
    ];
    let csa_bad = "PI\n+\n+7776FU\n-33ZZFU\n".to_owned();
    let csa_file = [&games[0], &csa_bad, &games[1], &games[2]]
        .map(String::as_str)
        .join("/\r\n")
        + "/\n";
    let kif = |csa: &str| {
        let rec = shogi_record::read(csa.as_bytes()).unwrap();
        shogi_record::write(&rec, shogi_record::Format::Kif)
    };
    let kif_bad =
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(3Z)\n";
    let kif_file = [
        kif(&games[0]),
        kif_bad.to_owned(),
        kif(&games[1]),
        kif(&games[2]),
    ]
    .join("\n");
    for (name, file, bad_token) in [
        ("round1.csa", csa_file, "-33ZZFU"),
        ("round1.kif", kif_file, "３四歩(3Z)"),
    ] {
        let collection = name.replace('.', "-");
        let (status, made) = create_collection(&ts, &alice, json!({"name": collection})).await;
        assert_eq!(status, 201, "{made}");
        let bad_line = file.lines().position(|l| l.contains(bad_token)).unwrap() + 1;
        let (status, lines) = upload(
            &ts,
            &format!("/api/collections/{collection}/import"),
            &alice,
            &zip(&[(name, file)]),
        )
        .await;
        assert_eq!(status, 200);
        let last = lines.last().unwrap();
        assert_eq!(
            (last["files"].as_u64(), last["added"].as_u64()),
            (Some(1), Some(3)),
            "{name}: {last}"
        );
        let bad = &last["unreadable"][0];
        assert_eq!(bad["file"], format!("upload.zip/{name}"));
        assert_eq!(
            (bad["line"].as_u64(), bad["token"].as_str()),
            (Some(bad_line as u64), Some(bad_token)),
            "{name}: {bad}"
        );
        // Each game opens in the review as its own record: its players, its moves.
        for (player, gote, plies) in [
            ("anna", "Boris", 2),
            ("boris", "Anna", 3),
            ("vera", "Vera", 1),
        ] {
            let (_, found) = ts
                .request(
                    "GET",
                    &format!("/api/search?player={player}&collection={collection}"),
                    None,
                )
                .await;
            let game = found["games"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["gote"] == gote)
                .unwrap_or_else(|| panic!("{name} {player}: {found}"))
                .clone();
            let id = game["id"].as_str().unwrap();
            let (status, rec) = ts
                .request("GET", &format!("/api/games/{id}/record?format=json"), None)
                .await;
            assert_eq!(status, 200, "{rec}");
            assert_eq!(rec["headers"]["gote"], gote, "{name}: {rec}");
            assert_eq!(
                rec["moves"].as_array().unwrap().len(),
                plies,
                "{name}: {rec}"
            );
        }
    }
    ts.shutdown().await;
}

/// `GET path` as `cookie` (a `Cookie: ...` line) or a guest.
async fn ask(ts: &TestServer, cookie: Option<&String>, path: &str) -> (u16, String, Value) {
    let headers: Vec<&str> = cookie.map(String::as_str).into_iter().collect();
    ts.request_with("GET", path, &headers, None).await
}

#[tokio::test]
async fn a_private_collection_is_invisible_to_others() {
    let tmp = TempDir::new("explorer-private");
    let ts = TestServer::start(&tmp.db()).await;
    let (alice, _) = account(&ts, "alice").await;
    let (bob, _) = account(&ts, "bob").await;
    let (status, _) = create_collection(
        &ts,
        &alice,
        json!({"name": "prep", "visibility": "private"}),
    )
    .await;
    assert_eq!(status, 201);
    let files = vec![("1.csa", kif_game("Alice", "Bob", &["2g2f", "8c8d"]))];
    let (status, _) = upload(&ts, "/api/collections/prep/import", &bob, &zip(&files)).await;
    assert_eq!(status, 404, "bob may not even learn it exists");
    let (status, lines) = upload(&ts, "/api/collections/prep/import", &alice, &zip(&files)).await;
    assert_eq!(status, 200);
    assert_eq!(lines.last().unwrap()["added"], 1);

    let (_, _, mine) = ask(&ts, Some(&alice), "/api/explorer?sfen=startpos").await;
    assert_eq!(mine["total"], 1, "{mine}");
    for cookie in [Some(&bob), None] {
        let (_, _, theirs) = ask(&ts, cookie, "/api/explorer?sfen=startpos").await;
        assert_eq!(theirs["total"], 0, "{theirs}");
        let (status, _, _) = ask(&ts, cookie, "/api/explorer?sfen=startpos&collection=prep").await;
        assert_eq!(status, 404);
        let (_, _, found) = ask(&ts, cookie, "/api/search?player=alice").await;
        assert_eq!(found["games"], json!([]));
        let (_, _, list) = ask(&ts, cookie, "/api/collections").await;
        assert!(!list.to_string().contains("prep"), "{list}");
    }
    let (_, _, found) = ask(&ts, Some(&alice), "/api/search?player=alice").await;
    let id = found["games"][0]["id"].as_str().unwrap().to_owned();
    let (status, _, _) = ask(&ts, Some(&bob), &format!("/api/games/{id}/record")).await;
    assert_eq!(status, 404);
    let (status, _, _) = ask(&ts, Some(&alice), &format!("/api/games/{id}/record")).await;
    assert_eq!(status, 200);
    ts.shutdown().await;
}

#[tokio::test]
async fn a_game_played_here_joins_the_site_collection_once_over() {
    let tmp = TempDir::new("explorer-site");
    let ts = TestServer::start(&tmp.db()).await;
    let created = ts.create(local(json!({}))).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut ws = ts
        .connect(&id, Some(created["token"].as_str().unwrap()))
        .await;
    ws.play_all(&["7g7f", "3c3d"]).await;
    let (_, live) = ts
        .request("GET", "/api/explorer?sfen=startpos&collection=site", None)
        .await;
    assert_eq!(
        live["total"], 0,
        "a game still played is not counted: {live}"
    );
    ws.send(json!({"type": "resign"})).await;
    ws.state_where(|s| s["status"]["over"] == true).await;
    let (_, over) = ts
        .request("GET", "/api/explorer?sfen=startpos&collection=site", None)
        .await;
    assert_eq!(over["total"], 1, "{over}");
    assert_eq!(over["moves"][0]["usi"], "7g7f");
    assert_eq!(over["moves"][0]["gote_wins"], 1, "Sente resigned: {over}");
    assert_eq!(over["games"][0]["id"], id.as_str());
    let (_, again) = ts.request("GET", "/api/explorer?sfen=startpos", None).await;
    assert_eq!(again["total"], 1, "counted once: {again}");
    // Bad input is named.
    let (status, bad) = ts.request("GET", "/api/explorer?sfen=lnsgk", None).await;
    assert_eq!(status, 400, "{bad}");
    let (status, _) = ts.request("GET", "/api/explorer?min_rating=-5", None).await;
    assert_eq!(status, 400);
    ts.shutdown().await;
}

#[tokio::test]
async fn a_profile_shows_the_players_repertoire_from_their_games() {
    let tmp = TempDir::new("explorer-repertoire");
    let ts = TestServer::start(&tmp.db()).await;
    let alice = account(&ts, "Alice").await;
    let bob = account(&ts, "Bob").await;
    // Two games with Alice as Sente: 7g7f then 2g2f; she wins one, loses one.
    for (first, alice_resigns) in [("7g7f", false), ("7g7f", true)] {
        let seek = json!({"time": {"main_ms": 600_000, "byoyomi_ms": 10_000}, "side": "sente"});
        let (_, mut a, mut b) = seek_game(&ts, seek, &alice, &bob).await;
        a.play(first).await;
        b.play("3c3d").await;
        a.play("2g2f").await;
        let loser = if alice_resigns { &mut a } else { &mut b };
        loser.send(json!({"type": "resign"})).await;
        a.state_where(|s| s["status"]["over"] == true).await;
    }
    let (status, rep) = ts
        .request("GET", "/api/players/alice/repertoire", None)
        .await;
    assert_eq!(status, 200, "{rep}");
    let first = &rep["sente"][0];
    assert_eq!(first["sfen"], Position::startpos().to_sfen());
    assert_eq!(first["games"], 2);
    assert_eq!(
        first["moves"][0],
        json!({"usi": "7g7f", "games": 2, "wins": 1, "losses": 1, "draws": 0})
    );
    assert_eq!(rep["sente"][1]["moves"][0]["usi"], "2g2f");
    assert_eq!(rep["gote"], json!([]));
    let (_, bobs) = ts.request("GET", "/api/players/bob/repertoire", None).await;
    assert_eq!(bobs["gote"][0]["moves"][0]["usi"], "3c3d", "{bobs}");
    assert_eq!(bobs["gote"][0]["moves"][0]["wins"], 1);
    let (status, _) = ts
        .request("GET", "/api/players/nobody/repertoire", None)
        .await;
    assert_eq!(status, 404);
    ts.shutdown().await;
}
