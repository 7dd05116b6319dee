"""Trains cairn's domain word vectors on the corpus from corpus.py: positive pointwise mutual information over a
symmetric window, factorised by a truncated SVD (Levy, Goldberg and Dagan's recipe: context counts smoothed by
the 0.75 power, singular values weighted by their square root). Deterministic for a given corpus.

    python3 scripts/word-vectors/train.py /tmp/cairn-corpus.txt /tmp/cairn-domain   # writes .words.txt and .f32
"""

import sys
from collections import Counter

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import svds

VOCAB = 60_000
MIN_COUNT = 5
WINDOW = 5
DIMS = 100
ALPHA = 0.75

corpus_path, out = sys.argv[1], sys.argv[2]
counts = Counter()
with open(corpus_path) as f:
    for line in f:
        counts.update(line.split())
words = [w for w, c in counts.most_common(VOCAB) if c >= MIN_COUNT]
index = {w: i for i, w in enumerate(words)}
V = len(words)
print(f"{sum(counts.values()) / 1e6:.1f} M tokens, vocabulary {V}", file=sys.stderr)

ids = []
with open(corpus_path) as f:
    for line in f:
        ids.extend(index.get(w, -1) for w in line.split())
        ids.extend([-1] * WINDOW)  # paragraphs do not share windows
ids = np.asarray(ids, dtype=np.int64)

cooc = sp.csr_matrix((V, V), dtype=np.float64)
for d in range(1, WINDOW + 1):
    a, b = ids[:-d], ids[d:]
    keep = (a >= 0) & (b >= 0)
    a, b = a[keep], b[keep]
    weight = np.full(a.shape, (WINDOW - d + 1) / WINDOW)
    m = sp.coo_matrix((weight, (a, b)), shape=(V, V)).tocsr()
    cooc = cooc + m + m.T
    print(f"window {d}: {keep.sum() / 1e6:.1f} M pairs", file=sys.stderr)

total = cooc.sum()
row = np.asarray(cooc.sum(axis=1)).ravel()
col = np.asarray(cooc.sum(axis=0)).ravel() ** ALPHA
col = col / col.sum()
coo = cooc.tocoo()
pmi = np.log(coo.data / total) - np.log(row[coo.row] / total) - np.log(col[coo.col])
keep = pmi > 0
ppmi = sp.csr_matrix((pmi[keep], (coo.row[keep], coo.col[keep])), shape=(V, V))
print(f"PPMI: {ppmi.nnz / 1e6:.1f} M non-zeros", file=sys.stderr)

rng = np.random.default_rng(7)
u, s, _ = svds(ppmi, k=DIMS, v0=rng.standard_normal(V), random_state=7)
order = np.argsort(-s)
vectors = (u[:, order] * np.sqrt(s[order])).astype(np.float32)
vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
vectors.tofile(out + ".f32")
with open(out + ".words.txt", "w") as f:
    f.write("\n".join(words))
print(f"wrote {out}.f32 ({V} x {DIMS}) and {out}.words.txt", file=sys.stderr)
