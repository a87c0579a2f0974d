"""Layout checks for small screens."""

# A common small phone; the issue asks for this size.
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "screen": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}

# Finds what a person on this screen could not fully see or reach:
# - the page scrolls sideways;
# - a visible element reaches past the left or right edge of the viewport;
# - an element hides part of its own content (overflow hidden/clip) sideways or downwards.
# Deliberately hidden things are left alone: the 1-pixel "visually hidden" pattern,
# a skip link parked off the left edge, text truncated with an ellipsis, and the
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
    const clipsX = ['hidden', 'clip'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1
      && style.textOverflow !== 'ellipsis';
    const clipsY = ['hidden', 'clip'].includes(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
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
