//! Swiss and McMahon pairing as a minimum-weight perfect matching.
