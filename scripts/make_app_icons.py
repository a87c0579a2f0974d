"""Draw the installable app's icons (static/img/app/*.png) from static/img/favicon.svg.

Run after changing the favicon: `.venv/bin/python scripts/make_app_icons.py`. The PNGs are
committed, so a clone needs no drawing tool. Debian's chromium draws them (through
Playwright, as the browser tests do), so the icon is the browser's own rendering of the SVG.

- icon-192.png, icon-512.png ("any"): the card on a rounded felt-green square;
- icon-maskable-512.png ("maskable"): full-bleed felt with the card inside the central 80 %
  circle a launcher may cut the icon to.
"""

from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
SVG = (ROOT / "static" / "img" / "favicon.svg").read_text()
OUT = ROOT / "static" / "img" / "app"
FELT = "#1f6f43"

ICONS = (
    # name, size, css of the square behind the card, card size as a share of the icon
    ("icon-192.png", 192, f"background:{FELT};border-radius:22%", 0.78),
    ("icon-512.png", 512, f"background:{FELT};border-radius:22%", 0.78),
    ("icon-maskable-512.png", 512, f"background:{FELT}", 0.56),
)


def page_html(size, square_css, share):
    card = int(size * share)
    svg = SVG.replace("<svg ", '<svg width="100%" height="100%" ')
    return (
        "<!doctype html><html><body style='margin:0;background:transparent'>"
        f"<div style='width:{size}px;height:{size}px;{square_css};display:grid;place-items:center'>"
        f"<div style='width:{card}px;height:{card}px'>{svg}</div>"
        "</div></body></html>"
    )


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        for name, size, square_css, share in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_html(size, square_css, share))
            page.screenshot(path=OUT / name, omit_background=True)
            page.close()
            print(f"{OUT / name}: {size}x{size}")
        browser.close()


if __name__ == "__main__":
    main()
