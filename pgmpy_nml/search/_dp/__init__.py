"""The subset dynamic programming (Silander & Myllymaki 2006): plans that score every
parent set of every variable, and the compiled best-parent-set and best-sink passes."""
