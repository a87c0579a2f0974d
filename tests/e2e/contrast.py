"""Text contrast as a reader sees it: every visible piece of text on the page against the
background it is painted on, at least 4.5:1 (WCAG AA), whatever the theme.

The page's script finds each element with text of its own (and each card's index on its
face), takes its computed colour, and lays the backgrounds of the element and its ancestors
over one another (alpha included) down to the first opaque one, as the browser paints them;
the opacity of the element and its ancestors fades the text into that background (text at
opacity 0 is not shown, so not measured). Disabled
controls are exempt (WCAG: "inactive user interface components"), as are the 1-pixel
"visually hidden" labels nobody sees. A suit symbol shown alone, outside a card, is measured
against its background too, at least 3:1 (a symbol, WCAG 1.4.11)."""

MINIMUM = 4.5
SYMBOL_MINIMUM = 3  # WCAG 1.4.11, non-text contrast: a suit symbol shown alone

_LOW_CONTRAST = """
([minimum, symbolMinimum]) => {
  const parse = (value) => {
    const m = value.match(/rgba?\\(([\\d.]+)[ ,]+([\\d.]+)[ ,]+([\\d.]+)(?:[ ,/]+([\\d.]+%?))?\\)/);
    if (!m) return null;
    let alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    return [+m[1], +m[2], +m[3], alpha];
  };
  const over = (top, bottom) => {  // top (with alpha) painted over an opaque bottom
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
  };
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const backgroundOf = (el) => {
    const layers = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const colour = parse(getComputedStyle(node).backgroundColor);
      if (colour && colour[3] > 0) {
        layers.push(colour);
        if (colour[3] >= 1) break;
      }
    }
    let painted = [255, 255, 255, 1];  // the canvas, when nothing is opaque
    for (const layer of layers.reverse()) painted = over(layer, painted);
    return painted;
  };
  const opacityOf = (el) => {
    let opacity = 1;
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      opacity *= parseFloat(getComputedStyle(node).opacity);
    }
    return opacity;
  };
  const seen = (el) => {
    const style = getComputedStyle(el);
    if (style.visibility !== 'visible' || !el.getClientRects().length) return false;
    const box = el.getBoundingClientRect();
    return box.width > 1 && box.height > 1;
  };
  const exempt = (el) => el.closest(':disabled, [aria-disabled="true"], .visually-hidden, [hidden], script, style, svg, option');
  const describe = (el) => {
    let name = el.tagName.toLowerCase();
    if (el.id) name += '#' + el.id;
    if (typeof el.className === 'string' && el.className.trim()) name += '.' + el.className.trim().split(/\\s+/).join('.');
    return name;
  };
  const found = [];
  const checked = { texts: 0, cards: 0 };
  for (const el of document.body.querySelectorAll('*')) {
    const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!ownText && el.tagName !== 'SELECT') continue;
    if (exempt(el) || !seen(el)) continue;
    const opacity = opacityOf(el);
    if (opacity === 0) continue;  // not shown (a heading's anchor until it is hovered)
    const background = backgroundOf(el);
    let text = parse(getComputedStyle(el).color);
    text = over([text[0], text[1], text[2], text[3] * opacity], background);
    checked.texts += 1;
    const value = ratio(text, background);
    if (value < minimum) {
      const words = el.tagName === 'SELECT' ? el.selectedOptions[0]?.textContent : el.textContent;
      found.push(`${describe(el)} "${(words || '').trim().slice(0, 40)}": ${value.toFixed(2)}:1 (${getComputedStyle(el).color} on rgb(${background.slice(0, 3).map(Math.round).join(', ')}))`);
    }
  }
  // A card's index (rank and suits) against its face.
  for (const card of document.querySelectorAll('svg.card[data-card]')) {
    if (!seen(card) || card.closest('.is-illegal, .illegal')) continue;  // faded on purpose: unplayable now
    const frame = card.querySelector('.card__frame');
    const rank = card.querySelector('.card__rank');
    if (!frame || !rank) continue;
    const face = parse(getComputedStyle(frame).fill);
    const ink = parse(getComputedStyle(rank).fill);
    checked.cards += 1;
    const value = ratio(ink, face);
    if (value < minimum) found.push(`card ${card.dataset.card}: ${value.toFixed(2)}:1 (${getComputedStyle(rank).fill} on ${getComputedStyle(frame).fill})`);
  }
  // A suit shown alone (a trump, a joker's call, a deal's heading) against what it is painted on:
  // a symbol that carries meaning, so at least 3:1 (WCAG 1.4.11). A black club on the dark theme's
  // paper, a red heart on the green felt (1.04:1, the same lightness) could not be told.
  checked.suits = 0;
  for (const suit of document.querySelectorAll('svg.suit[data-suit]')) {
    if (!seen(suit) || suit.closest('svg.card, .visually-hidden, [hidden]')) continue;
    const ink = parse(getComputedStyle(suit).fill);
    const opacity = opacityOf(suit);
    if (!ink || opacity === 0) continue;
    const background = backgroundOf(suit);
    checked.suits += 1;
    const value = ratio(over([ink[0], ink[1], ink[2], ink[3] * opacity], background), background);
    if (value < symbolMinimum) {
      found.push(`${describe(suit.parentElement)} suit ${suit.dataset.suit}: ${value.toFixed(2)}:1 (${getComputedStyle(suit).fill} on rgb(${background.slice(0, 3).map(Math.round).join(', ')}))`);
    }
  }
  return { found, checked };
}
"""


def assert_text_readable(page, minimum=MINIMUM):
    """Fails with every piece of text under `minimum`:1; returns how many texts and card
    faces were measured (a check that measured nothing proves nothing)."""
    page.wait_for_load_state("load")
    result = page.evaluate(_LOW_CONTRAST, [minimum, SYMBOL_MINIMUM])
    assert not result["found"], f"text under {minimum}:1 on {page.url}:\n  " + "\n  ".join(result["found"])
    assert result["checked"]["texts"] > 10, result
    return result["checked"]
