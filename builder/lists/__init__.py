"""List documents: load (with positions), edit (comment-preserving), dump."""
