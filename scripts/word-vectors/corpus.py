"""Builds the software-text corpus that cairn's domain word vectors are trained on.

Reads documentation and source comments found on a developer machine (man pages, the Rust books and API docs,
Python and Java docstrings and comments, Markdown and TypeScript declaration comments in node_modules), strips markup, splits words the way
cairn's embedder does (camelCase, snake_case and dotted identifiers into their parts, lowercased) and writes one
paragraph of tokens per line to stdout, with a summary of what was read on stderr.

    python3 scripts/word-vectors/corpus.py > /tmp/cairn-corpus.txt
"""

import gzip
import html
import os
import re
import sys
import zipfile

HOME = os.path.expanduser("~")
TOKEN = re.compile(r"[A-Za-z_$][\w$]*")
HUMP = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
WORD = re.compile(r"^[a-z][a-z0-9]*$")
TAG = re.compile(r"<script.*?</script>|<style.*?</style>|<[^>]+>", re.S)
ROFF_ESC = re.compile(r"\\f[BIRP]|\\f\(..|\\\(..|\\[-&e|^%]|\\s[-+]?\d|\\\*\(..|\\\*.")
DOCSTRING = re.compile(r'"""(.*?)"""|\'\'\'(.*?)\'\'\'', re.S)
PY_COMMENT = re.compile(r"#\s?(.*)")
JAVADOC = re.compile(r"/\*\*(.*?)\*/", re.S)
counts = {}
seen = set()


def words(text):
    out = []
    for m in TOKEN.finditer(text):
        for part in HUMP.findall(m.group(0)):
            w = part.lower()
            if len(w) > 1 and WORD.match(w):
                out.append(w)
    return out


def emit(source, text):
    for para in re.split(r"\n\s*\n", text):
        ws = words(para)
        # boilerplate (licence headers, generated API text) repeats verbatim; count each paragraph once
        key = hash(" ".join(ws))
        if len(ws) >= 4 and key not in seen:
            seen.add(key)
            sys.stdout.write(" ".join(ws))
            sys.stdout.write("\n")
            counts[source] = counts.get(source, 0) + len(ws)


def man_pages():
    for section in ("man1", "man2", "man3", "man5", "man7", "man8"):
        d = os.path.join("/usr/share/man", section)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            try:
                with gzip.open(os.path.join(d, name), "rt", errors="replace") as f:
                    raw = f.read()
            except (OSError, EOFError):
                continue
            lines = []
            for line in raw.splitlines():
                if line.startswith(".") or line.startswith("'"):
                    # a macro line: keep the words of .SH/.TP/.B style headings and inline text
                    parts = line.split(None, 1)
                    line = parts[1] if len(parts) > 1 and parts[0] in (".SH", ".SS", ".B", ".I", ".BR", ".IR", ".IP", ".TP", ".It", ".Nm", ".Nd", ".Fl", ".Ar") else ""
                    if line == "":
                        lines.append("" if raw and parts and parts[0] in (".PP", ".P", ".LP", ".SH", ".SS", ".Pp") else None)
                        continue
                lines.append(ROFF_ESC.sub(" ", line))
            emit("man", "\n".join(l for l in lines if l is not None))


def rust_docs():
    for toolchain in sorted(os.listdir(os.path.join(HOME, ".rustup", "toolchains")))[:1]:
        root = os.path.join(HOME, ".rustup", "toolchains", toolchain, "share", "doc", "rust", "html")
        for dirpath, _, files in os.walk(root):
            # core and alloc re-export what std documents; read std once
            if "/core/" in dirpath or "/alloc/" in dirpath:
                continue
            for name in sorted(files):
                if not name.endswith(".html"):
                    continue
                with open(os.path.join(dirpath, name), errors="replace") as f:
                    raw = f.read()
                main = raw.split('<main>', 1)[-1]
                text = html.unescape(TAG.sub("\n", main))
                emit("rust", text)


def python_sources():
    # the running interpreter's standard library and installed packages
    for base in [os.path.dirname(os.__file__)]:
        for dirpath, _, files in os.walk(base):
            if "/test" in dirpath or "__pycache__" in dirpath:
                continue
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                try:
                    with open(os.path.join(dirpath, name), errors="replace") as f:
                        src = f.read()
                except OSError:
                    continue
                for m in DOCSTRING.finditer(src):
                    emit("python", m.group(1) or m.group(2) or "")
                emit("python", "\n".join(m.group(1) for m in PY_COMMENT.finditer(src)))


def java_sources():
    import glob

    for path in sorted(p for p in glob.glob("/usr/lib/jvm/*/lib/src.zip") if os.path.exists(p))[:1]:
        with zipfile.ZipFile(path) as z:
            for name in sorted(z.namelist()):
                if not name.endswith(".java") or "/internal/" in name:
                    continue
                src = z.read(name).decode("utf-8", "replace")
                for m in JAVADOC.finditer(src):
                    body = re.sub(r"^\s*\*", "", m.group(1), flags=re.M)
                    emit("java", TAG.sub(" ", body))


def markdown(root):
    for dirpath, _, files in os.walk(root):
        for name in sorted(files):
            # changelogs are mostly commit hashes and version numbers
            if name.lower().endswith(".md") and "change" not in name.lower() and "history" not in name.lower():
                try:
                    with open(os.path.join(dirpath, name), errors="replace") as f:
                        emit("markdown", f.read())
                except OSError:
                    pass


def declarations(root):
    """JSDoc comments of TypeScript declaration files: the Node, DOM and library APIs in their authors' words."""
    for dirpath, _, files in os.walk(root):
        for name in sorted(files):
            if name.endswith(".d.ts"):
                try:
                    with open(os.path.join(dirpath, name), errors="replace") as f:
                        src = f.read()
                except OSError:
                    continue
                for m in JAVADOC.finditer(src):
                    emit("typescript", re.sub(r"^\s*\*", "", m.group(1), flags=re.M))


def plain_docs(root):
    for dirpath, _, files in os.walk(root):
        for name in sorted(files):
            lower = name.lower()
            if "change" in lower or "news" in lower or "copyright" in lower or "history" in lower:
                continue
            path = os.path.join(dirpath, name)
            try:
                if lower.endswith(".gz"):
                    with gzip.open(path, "rt", errors="replace") as f:
                        text = f.read()
                elif lower.endswith((".txt", ".md", ".rst")) or lower.startswith("readme"):
                    with open(path, errors="replace") as f:
                        text = f.read()
                else:
                    continue
            except (OSError, EOFError):
                continue
            emit("doc", text)


if __name__ == "__main__":
    man_pages()
    rust_docs()
    python_sources()
    java_sources()
    markdown(os.path.join(os.path.dirname(__file__), "..", "..", "node_modules"))
    declarations(os.path.join(os.path.dirname(__file__), "..", "..", "node_modules"))
    plain_docs("/usr/share/doc")
    total = sum(counts.values())
    for k, v in sorted(counts.items()):
        print(f"{k}: {v / 1e6:.1f} M tokens", file=sys.stderr)
    print(f"total: {total / 1e6:.1f} M tokens", file=sys.stderr)
