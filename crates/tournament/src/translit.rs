//! Latin transliteration of Cyrillic names for rating reports.
