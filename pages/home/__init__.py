"""The About page: what BLEU is, and where each page helps."""
