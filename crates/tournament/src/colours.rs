//! Colour history and furigoma.
