#!/usr/bin/env python3
"""Fails on a broken internal link of the built book or of Markdown files.

    python3 .ci/check_links.py BOOK_DIR [FILE.md ...]

BOOK_DIR is mdbook's output (`docs/book`): every `href` and `src` of its
HTML pages that is not an external address must name a file of the book,
and a `#fragment` must name an `id` in that page. Each Markdown file given
(README.md, CONTRIBUTING.md, ...) is read the same way: a relative link must
name a file or folder of the repository, and a fragment on a Markdown file
must name one of its headings (GitHub's anchors). External addresses
(`https:`, `mailto:`, ...) are not checked: the check runs offline. Prints
every broken link and exits 1 if there is one.
"""
import html.parser
import os
import re
import sys
import urllib.parse

EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


class Page(html.parser.HTMLParser):
    """The links and ids of one HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links = []
        self.ids = set()
        self.base = None

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name"):
                self.ids.add(value)
            if tag == "base" and name == "href":
                self.base = value
            elif name in ("href", "src") and tag != "base":
                self.links.append(value)


def parse_html(path, cache={}):
    if path not in cache:
        page = Page()
        with open(path, encoding="utf-8") as f:
            page.feed(f.read())
        cache[path] = page
    return cache[path]


def check_book(book):
    problems = []
    root = os.path.abspath(book)
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith(".html"):
                continue
            path = os.path.join(folder, name)
            page = parse_html(path)
            # mdbook's 404 page resolves its links against the site's root.
            here = root if page.base == "/" else os.path.dirname(path)
            for link in page.links:
                if EXTERNAL.match(link) or link.startswith("//"):
                    continue
                url = urllib.parse.urlsplit(link)
                target = path
                if url.path:
                    target = os.path.normpath(
                        os.path.join(here, urllib.parse.unquote(url.path))
                    )
                    if os.path.isdir(target):
                        target = os.path.join(target, "index.html")
                    if not os.path.exists(target):
                        problems.append(f"{os.path.relpath(path)}: broken link {link}")
                        continue
                if url.fragment and target.endswith(".html"):
                    fragment = urllib.parse.unquote(url.fragment)
                    if fragment not in parse_html(target).ids:
                        problems.append(
                            f"{os.path.relpath(path)}: no anchor #{fragment} in {os.path.relpath(target)} ({link})"
                        )
    return problems


def markdown_text(path):
    """The file without its fenced code blocks and code spans."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading):
    """GitHub's anchor of a heading."""
    text = re.sub(r"`|\*\*|__|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, seen = set(), {}
    for line in markdown_text(path).splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def check_markdown(path):
    problems = []
    text = markdown_text(path)
    links = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", text)
    links += re.findall(r"^\s*\[[^\]]+\]:\s*(\S+)", text, flags=re.M)
    links += re.findall(r"<a\s[^>]*href=\"([^\"]+)\"", text)
    for link in links:
        if EXTERNAL.match(link) or link.startswith("//"):
            continue
        url = urllib.parse.urlsplit(link)
        target = path
        if url.path:
            target = os.path.normpath(
                os.path.join(os.path.dirname(path), urllib.parse.unquote(url.path))
            )
            if not os.path.exists(target):
                problems.append(f"{path}: broken link {link}")
                continue
        if url.fragment and target.endswith(".md"):
            if urllib.parse.unquote(url.fragment) not in anchors(target):
                problems.append(f"{path}: no heading #{url.fragment} in {target}")
    return problems


def main(args):
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    book, files = args[0], args[1:]
    if not os.path.isdir(book):
        print(f"check_links: {book} is not a folder (build the book first)", file=sys.stderr)
        return 2
    problems = check_book(book)
    for path in files:
        problems += check_markdown(path)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check_links: {len(problems)} broken internal links", file=sys.stderr)
        return 1
    print(f"check_links: no broken internal link (the book in {book}, {len(files)} Markdown files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
