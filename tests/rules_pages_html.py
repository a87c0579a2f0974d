"""Reading rendered rules pages in tests: ids, links, the table of contents, visible text."""

from html.parser import HTMLParser


class PageReader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.links = []  # (href, attrs)
        self.head_links = []  # <link> attrs
        self.toc_hrefs = []
        self.headings = []  # (tag, id) inside the page body
        self.title = ""
        self.meta = {}
        self.text = []  # visible text of <main>, without SVG
        self.html_lang = None
        self._in = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.html_lang = attrs.get("lang")
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "href" in attrs:
            self.links.append((attrs["href"], attrs))
            if "rules-toc" in self._in:
                self.toc_hrefs.append(attrs["href"])
        if tag == "link":
            self.head_links.append(attrs)
        if tag == "meta" and "name" in attrs:
            self.meta[attrs["name"]] = attrs.get("content", "")
        if tag in ("h2", "h3") and "rules-body" in self._in:
            self.headings.append((tag, attrs.get("id")))
        if tag in ("br", "img", "input", "link", "meta", "circle", "path", "rect", "hr"):
            return
        marker = tag
        classes = (attrs.get("class") or "").split()
        if "rules-toc" in classes:
            marker = "rules-toc"
        elif "rules-body" in classes:
            marker = "rules-body"
        self._in.append(marker)

    def handle_endtag(self, tag):
        if tag in ("br", "img", "input", "link", "meta", "circle", "path", "rect", "hr"):
            return
        if self._in:
            self._in.pop()

    def handle_data(self, data):
        if self._in and self._in[-1] == "title" and "svg" not in self._in:
            self.title += data
        if "main" in self._in and "svg" not in self._in and "script" not in self._in and "noscript" not in self._in:
            self.text.append(data)


def read_page(html):
    reader = PageReader()
    reader.feed(html)
    return reader
