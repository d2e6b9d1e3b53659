"""The Explain page: one candidate against its references, every step of BLEU; its link, presentation mode and
exercise mode."""
