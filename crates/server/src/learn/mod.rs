//! The learn pages: an account's progress through the course
//! ([`progress`], `GET`/`PUT /api/me/learn`) and one move played on a
//! lesson's position outside any game ([`play`], `POST /api/play`).

pub mod play;
pub mod progress;
