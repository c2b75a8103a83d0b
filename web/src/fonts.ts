// Text drawn before its web font has loaded.
//
// The Japanese font the app serves (base.css, `Shogi Japanese`) loads on
// demand, when a page first shows a character of its `unicode-range`.
// Chromium draws the text that asked for it in a fallback font until then,
// and a font without Japanese draws empty boxes; some of that text (a
// page's heading, the first link of the header) was never drawn again once
// the font had arrived. After each font load the page's word spacing grows
// by a hundredth of a pixel, which no reader sees and which makes the
// browser set all of the page's text again, in the fonts it now has.

/** Sets the page's text again after every web font that finishes loading. */
export function redrawTextAfterFontLoads(): void {
  let loads = 0;
  document.fonts.addEventListener('loadingdone', () => {
    // A new value each time (up to 0.1 px a space): a value the page had
    // before would bring back text set before the load.
    loads = Math.min(loads + 1, 10);
    document.documentElement.style.wordSpacing = `${loads / 100}px`;
  });
}
