"""Layout checks for small screens."""

# A common small phone; the issue asks for this size.
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "screen": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


def zoomed(phone, zoom):
    """The same phone with its browser zoomed: a larger text size on Android (Chrome's and
    Firefox's zoom settings), as on an iPhone (Safari's page zoom), zooms the page, so fewer CSS
    pixels fit on the screen (at 125 %, 288 across a 360-px phone) and each is more device pixels."""
    size = {"width": round(phone["viewport"]["width"] / zoom), "height": round(phone["viewport"]["height"] / zoom)}
    return phone | {"viewport": size, "screen": size, "device_scale_factor": phone["device_scale_factor"] * zoom}


PHONE_ZOOMED_125 = zoomed(PHONE, 1.25)  # 288×592
PHONE_ZOOMED_150 = zoomed(PHONE, 1.5)  # 240×493
# A phone held sideways (a 390×844 phone turned): 390 px tall.
PHONE_LANDSCAPE = PHONE | {"viewport": {"width": 844, "height": 390}, "screen": {"width": 844, "height": 390}}

# Finds what a person on this screen could not fully see or reach:
# - the page scrolls sideways;
# - a visible element reaches past the left or right edge of the viewport;
# - an element hides part of its own content (overflow hidden/clip) sideways or downwards.
# Deliberately hidden things are left alone: the 1-pixel "visually hidden" pattern,
# a skip link parked off the left edge, text truncated with an ellipsis (on one line, or
# after a few with -webkit-line-clamp; an ellipsis counts only in a block, where the browser
# draws it), a text field's own scrolling, and the
# subtrees the caller names in `allow` (e.g. a table that scrolls inside its box).
_FIND_CUT_OFF = """
(allow) => {
  const width = document.documentElement.clientWidth;
  const found = [];
  const scrollWidth = document.documentElement.scrollWidth;
  if (scrollWidth > width + 1) {
    found.push(`the page scrolls sideways: ${scrollWidth}px wide in a ${width}px viewport`);
  }
  const describe = (el) => {
    let name = el.tagName.toLowerCase();
    if (el.id) name += '#' + el.id;
    const classes = typeof el.className === 'string' ? el.className.trim() : '';
    if (classes) name += '.' + classes.split(/\\s+/).join('.');
    const text = (el.innerText || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return text ? `${name} "${text}"` : name;
  };
  const allowed = (el) => allow.some((selector) => el.closest(selector));
  for (const el of document.querySelectorAll('body, body *')) {
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || allowed(el)) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 1 && rect.height <= 1) continue;
    const positioned = style.position === 'absolute' || style.position === 'fixed';
    const parkedOffLeft = positioned && rect.right <= 0;
    if (!parkedOffLeft && (rect.left < -1 || rect.right > width + 1)) {
      const span = `x=${Math.round(rect.left)}..${Math.round(rect.right)}`;
      found.push(`${describe(el)} spans ${span} in a ${width}px viewport`);
    }
    // An ellipsis ends text only in a block: a flex or grid box with one clips it unmarked.
    const ellipsis = style.textOverflow === 'ellipsis' && !/flex|grid/.test(style.display);
    // A text field scrolls its own text under the caret.
    const field = el.matches('input, textarea');
    const clipsX = ['hidden', 'clip'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1
      && !ellipsis && !field;
    const clipsY = ['hidden', 'clip'].includes(style.overflowY) && el.scrollHeight > el.clientHeight + 1
      && style.webkitLineClamp === 'none';
    if (el !== document.body && (clipsX || clipsY)) {
      const sizes = `${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`;
      found.push(`${describe(el)} hides part of its content (${sizes})`);
    }
  }
  return found;
}
"""


def find_cut_off(page, allow=()):
    """Descriptions of everything cut off on the page once its stylesheets and fonts are in.

    A page reached by a click can already show its heading while a stylesheet is still on
    its way: laid out without rules.css, an example sheet pushes the page 10 px wider than
    the phone (a CI failure). A person never sees that layout (the browser does not paint
    before the stylesheets arrive), so it is not what the check is about.
    """
    page.wait_for_load_state("load")
    page.evaluate("() => document.fonts.ready.then(() => null)")
    return page.evaluate(_FIND_CUT_OFF, list(allow))


def assert_nothing_cut_off(page, allow=()):
    """Fail when part of the page is cut off or needs sideways scrolling.

    `allow`: CSS selectors of boxes that may deliberately scroll or clip their content.
    """
    found = find_cut_off(page, allow)
    assert not found, f"cut off at {page.viewport_size['width']}px on {page.url}:\n  " + "\n  ".join(found)


# For each card of a hand, in the page's order: is it inside the viewport, does the part of
# it a thumb can reach measure at least `least` px each way, and is the card itself (not
# something laid over it) what a tap at the middle of that part reaches? The part is the
# card's box less what the next card of the same row lies over: a hand that does not fit
# one row overlaps its cards, the next covering a card's right part (a hand in two rows
# has its rows apart).
_CARDS_OUT_OF_REACH = """
([selector, least]) => {
  const cards = [...document.querySelectorAll(selector)];
  return cards.flatMap((card, index) => {
    const box = card.getBoundingClientRect();
    const name = card.querySelector('[data-card]')?.dataset.card || `card ${index + 1}`;
    if (box.left < 0 || box.right > document.documentElement.clientWidth || box.top < 0
        || box.bottom > window.innerHeight) {
      return [`${name} spans x=${Math.round(box.left)}..${Math.round(box.right)}, y=${
          Math.round(box.top)}..${Math.round(box.bottom)} in ${innerWidth}x${innerHeight}`];
    }
    const group = (el) => el.closest('.hand, .column') || el.parentElement;  // a joker's is in its <details>
    const next = cards[index + 1] && group(cards[index + 1]) === group(card)
      ? cards[index + 1].getBoundingClientRect() : null;
    const sameRow = next && Math.abs(next.top - box.top) < box.height / 2 && next.left > box.left;
    const right = sameRow ? Math.min(box.right, next.left) : box.right;
    const problems = [];
    if (right - box.left < least - 0.5 || box.height < least - 0.5) {
      problems.push(`${name} shows ${Math.round(right - box.left)}x${Math.round(box.height)} px`);
    }
    const hit = document.elementFromPoint((box.left + right) / 2, box.top + box.height / 2);
    if (!hit || !card.contains(hit)) {
      problems.push(`${name} is covered by ${hit ? hit.outerHTML.slice(0, 80) : 'nothing'}`);
    }
    return problems;
  });
}
"""


def cards_out_of_reach(page, selector, least_px=0) -> list[str]:
    """What is wrong with reaching each card matching `selector` (see above); [] when all
    can be tapped. Found and measured in one turn of the page's script."""
    return page.evaluate(_CARDS_OUT_OF_REACH, [selector, least_px])


# Each card of the trick on the table, once its movement has ended: where it lies against the
# others. Every card is whole inside the trick's box and covers no other; in a four-seat trick
# the left seat's card lies left of the one across and the right seat's right of it, and the card
# across lies above the side cards, which lie above mine.
_TRICK_CARDS_OUT_OF_PLACE = """
async () => {
  const trick = document.querySelector('#match .trick');
  await Promise.all(trick.getAnimations({subtree: true}).map((a) => a.finished.catch(() => null)));
  const box = trick.getBoundingClientRect();
  const cards = {};
  for (const slot of trick.querySelectorAll(':scope > .trick-slot')) {
    const pos = [...slot.classList].find((name) => name.startsWith('pos-')).slice(4);
    cards[pos] = slot.querySelector('svg.card').getBoundingClientRect();
  }
  const problems = [];
  const at = (r) => `x=${Math.round(r.left)}..${Math.round(r.right)}, y=${Math.round(r.top)}..${Math.round(r.bottom)}`;
  const names = Object.keys(cards);
  for (const name of names) {
    const r = cards[name];
    if (r.left < box.left - 1 || r.right > box.right + 1) problems.push(`the ${name} card (${at(r)}) is not inside the trick (${at(box)})`);
  }
  names.forEach((a, i) => names.slice(i + 1).forEach((b) => {
    const ra = cards[a], rb = cards[b];
    const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
    const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
    if (w > 1 && h > 1) problems.push(`the ${a} card (${at(ra)}) and the ${b} card (${at(rb)}) overlap`);
  }));
  if (trick.closest('.felt.seats-4')) {
    const x = (r) => (r.left + r.right) / 2, y = (r) => (r.top + r.bottom) / 2;
    const before = (a, b, along, word) => {
      if (cards[a] && cards[b] && !(along(cards[a]) < along(cards[b]))) problems.push(`the ${a} card is not ${word} the ${b} card`);
    };
    before('left', 'across', x, 'left of');
    before('across', 'right', x, 'left of');
    before('left', 'right', x, 'left of');
    for (const side of ['left', 'right']) { before('across', side, y, 'above'); before(side, 'me', y, 'above'); }
  }
  return problems;
}
"""


def trick_cards_out_of_place(page) -> list[str]:
    """What is wrong with where the trick's cards lie (see above); [] when each card lies whole
    before the seat that played it."""
    return page.evaluate(_TRICK_CARDS_OUT_OF_PLACE)


# The text of each element matching the selector in which a word is broken across lines: two
# letters (or digits) in a row of one text node whose lines differ. Broken anywhere, a narrow
# table's headings once read "Оч / ки" and "Ма / тч / и".
_WORDS_BROKEN = """
(selector) => {
  const broken = new Set();
  const letter = /[\\p{L}\\p{N}]/u;
  for (const el of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent, range = document.createRange();
      let lineTop = null;
      for (let i = 0; i < text.length; i++) {
        if (!letter.test(text[i])) { lineTop = null; continue; }
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        if (lineTop !== null && Math.abs(rect.top - lineTop) > rect.height / 2) broken.add(el.textContent.trim());
        lineTop = rect.top;
      }
    }
  }
  return [...broken];
}
"""


def words_broken_in(page, selector) -> list[str]:
    """The texts of the elements matching `selector` with a word broken across two lines."""
    return page.evaluate(_WORDS_BROKEN, selector)


# What runs past the edge of a box, for each element matching `selector`, in one of two ways:
# "boxes", the visible descendants whose own box passes its left or right edge (one seat's
# figures running into the next seat's); "content", the box and its descendants whose content is
# wider than they are and neither clipped nor scrolled (a word wider than a seat: the element's
# own box stays in place, so only its content shows it).
_PAST_THE_EDGE = """
([selector, measure]) => {
  const found = [];
  const name = (el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${el.textContent.trim().slice(0, 30)}"`;
  for (const box of document.querySelectorAll(selector)) {
    const outer = box.getBoundingClientRect();
    if (measure === 'boxes' && !outer.width) continue;
    for (const el of measure === 'boxes' ? box.querySelectorAll('*') : [box, ...box.querySelectorAll('*')]) {
      if (el.closest('.visually-hidden')) continue;
      if (measure === 'boxes') {
        const r = el.getBoundingClientRect();
        if (r.width && r.height && (r.left < outer.left - 1 || r.right > outer.right + 1)) {
          found.push(`${name(el)} spans x=${Math.round(r.left)}..${Math.round(r.right)} in its box x=${Math.round(outer.left)}..${Math.round(outer.right)}`);
        }
      } else if (el.clientWidth && getComputedStyle(el).overflowX === 'visible' && el.scrollWidth > el.clientWidth + 1) {
        found.push(`${name(el)} is ${el.scrollWidth} px wide in its ${el.clientWidth}`);
      }
    }
  }
  return found;
}
"""


def spilled_out_of(page, selector) -> list[str]:
    """Descriptions of what passes the left or right edge of the boxes matching `selector`."""
    return page.evaluate(_PAST_THE_EDGE, [selector, "boxes"])


def text_past_its_box(page, selector) -> list[str]:
    """Descriptions of the content wider than its box in the elements matching `selector`."""
    return page.evaluate(_PAST_THE_EDGE, [selector, "content"])
