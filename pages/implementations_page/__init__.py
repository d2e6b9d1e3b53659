"""The Implementations page: the score each well-known BLEU tool gives the same text, and why they differ."""
