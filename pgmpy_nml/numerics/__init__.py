"""Numerical kernels: special functions and the NML normalizers."""
