"""The Corpus page: one system against its references, why the score is what it is (diagnosis, segments,
n-grams, words, lengths), and what-if edits of one segment."""
