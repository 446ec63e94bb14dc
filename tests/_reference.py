"""Slow, direct implementations of the papers' definitions, independent of the package.

Counting with Python dictionaries over all (declared) configurations, the
regret from the Kontkanen-Myllymaki recurrence in mpmath, the Gamma functions
from ``math.lgamma``: nothing here shares code with ``pgmpy_nml``.
"""

import itertools
import math
from collections import Counter

import mpmath
import numpy as np

mpmath.mp.dps = 40


def compositions(n, k):
    """Every tuple of k non-negative integers summing to n (the count vectors of n draws)."""
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in compositions(n - first, k - 1):
            yield (first, *rest)


def states_of(df, state_names, var):
    if state_names and var in state_names:
        return list(state_names[var])
    return sorted(df[var].unique().tolist())


def counts(df, child, parents, state_names=None):
    """{parent configuration tuple: [N_jk for k in child states]} over ALL configurations."""
    child_states = states_of(df, state_names, child)
    parent_states = [states_of(df, state_names, p) for p in parents]
    table = {cfg: [0] * len(child_states) for cfg in itertools.product(*parent_states)}
    for row in df[[*parents, child]].itertuples(index=False):
        cfg, x = tuple(row[:-1]), row[-1]
        table[cfg][child_states.index(x)] += 1
    return table


def regret(K, n):
    """C(K, n) by C(1,n)=1, C(2,n) = binomial sum, C(k+2) = C(k+1) + n/k C(k)."""
    if n == 0:
        return mpmath.mpf(1)
    n = mpmath.mpf(n)
    c1 = mpmath.mpf(1)
    c2 = mpmath.fsum(
        mpmath.binomial(n, k) * (k / n) ** k * ((n - k) / n) ** (n - k) for k in range(int(n) + 1)
    )
    if K == 1:
        return c1
    for k in range(1, K - 1):
        c1, c2 = c2, c2 + n / k * c1
    return c2


def log_likelihood(table):
    ll = 0.0
    for row in table.values():
        nj = sum(row)
        ll += sum(x * math.log(x / nj) for x in row if x)
    return ll


def fnml(df, child, parents, state_names=None):
    table = counts(df, child, parents, state_names)
    r = len(states_of(df, state_names, child))
    penalty = sum(float(mpmath.log(regret(r, sum(row)))) for row in table.values())
    return log_likelihood(table) - penalty


def collapsed_nml(df, variables, state_names=None):
    """log P^1_NML of the columns ``variables`` collapsed into one categorical variable."""
    n = len(df)
    k = math.prod(len(states_of(df, state_names, v)) for v in variables)
    if variables:
        freq = Counter(df[list(variables)].itertuples(index=False))
        ml = sum(c * math.log(c / n) for c in freq.values())
    else:
        ml = 0.0
    return ml - float(mpmath.log(regret(k, n)))


def qnml(df, child, parents, state_names=None):
    return collapsed_nml(df, [*parents, child], state_names) - collapsed_nml(
        df, list(parents), state_names
    )


# --------------------------------------------------------------------------------------
# The BD family. ``exact=True``: in mpmath, for any prior mass (hyperparameters up to
# 1e300), where a float64 lgamma difference would cancel; otherwise with math.lgamma.
# --------------------------------------------------------------------------------------


def log_rising_mp(a, n):
    """log Gamma(a + n) - log Gamma(a) with 40 significant digits, for any a > 0, n >= 0.

    ``loggamma(a)`` is about ``a log a``: the working precision grows with the digits
    of ``a`` and ``n`` so that ``a + n`` is exact and the difference keeps 40 digits.
    ``a`` may be a float (taken exactly) or an mpf.
    """
    a = mpmath.mpf(a)
    if n == 0:
        return mpmath.mpf(0)
    digits = int(2 * mpmath.log10(max(a, n, 10)))
    with mpmath.workdps(40 + digits):
        return +(mpmath.loggamma(a + n) - mpmath.loggamma(a))


def bd_row(row, alphas, exact=False):
    """log BD marginal likelihood of one row of counts N_k with hyperparameters a_k:
    log Gamma(sum a) - log Gamma(sum a + N) + sum_k [log Gamma(a_k + N_k) - log Gamma(a_k)].
    """
    if exact:
        alphas = [mpmath.mpf(a) for a in alphas]
        terms = [log_rising_mp(a, x) for a, x in zip(alphas, row, strict=True)]
        return mpmath.fsum(terms) - log_rising_mp(mpmath.fsum(alphas), sum(row))
    total = math.lgamma(math.fsum(alphas)) - math.lgamma(math.fsum(alphas) + sum(row))
    for a, x in zip(alphas, row, strict=True):
        if x:  # Gamma(a + 0) / Gamma(a) = 1, even for a = 0
            total += math.lgamma(a + x) - math.lgamma(a) if a > 0 else -math.inf
    return total


def bd(table, alpha_of, exact=False):
    """log BD marginal likelihood of a table; alpha_of(cfg, k) gives the hyperparameter."""
    rows = [
        bd_row(row, [alpha_of(cfg, k) for k in range(len(row))], exact)
        for cfg, row in table.items()
    ]
    return mpmath.fsum(rows) if exact else sum(rows)


def bd_rows(counts, alpha):
    """:func:`bd_row` of each row of a (q, r) count array; ``alpha`` broadcasts to (q, r)."""
    counts = np.asarray(counts)
    alpha = np.broadcast_to(np.asarray(alpha, dtype=float), counts.shape)
    return np.array(
        [
            bd_row([int(x) for x in row], [float(a) for a in alphas])
            for row, alphas in zip(counts, alpha, strict=True)
        ]
    )


def bd_constant(df, child, parents, a, state_names=None, exact=False):
    return bd(counts(df, child, parents, state_names), lambda cfg, k: a, exact)


def bdeu(df, child, parents, ess, state_names=None, exact=False):
    table = counts(df, child, parents, state_names)
    q, r = len(table), len(next(iter(table.values())))
    alpha = (mpmath.mpf(ess) if exact else ess) / (q * r)
    return bd(table, lambda cfg, k: alpha, exact)


def contaminated_bdeu(df, child, parents, ess, eps, pick, state_names=None, exact=False):
    """Min (pick=min) or Max (pick=max) over the VERTICES of the contaminated set.

    Exact for Min (a concave function attains its minimum at a vertex); for Max
    this is only a lower bound, used as such in the tests.
    """
    table = counts(df, child, parents, state_names)
    q, r = len(table), len(next(iter(table.values())))
    if exact:
        ess, eps = mpmath.mpf(ess), mpmath.mpf(eps)
    beta = ess / q
    lo, hi = beta * (1 - eps) / r, beta * (eps + (1 - eps) / r)
    values = [
        pick(bd_row(row, [hi if k == v else lo for k in range(r)], exact) for v in range(r))
        for row in table.values()
    ]
    return mpmath.fsum(values) if exact else sum(values)


def log_regret_lagrange(K, n, dps=40):
    """log C(K, n) by Lagrange inversion of the tree function, for any (huge) K, summed in
    full at ``dps`` digits: C = n!/n^n K/n sum_{j<n} binom(K+j, j) n^(n-1-j) / (n-1-j)!.

    The terms are updated multiplicatively: u_{j+1} = u_j (K+j+1)/(j+1) (n-1-j)/n.
    """
    with mpmath.workdps(dps):
        if n == 0:
            return mpmath.mpf(0)
        Km, nm = mpmath.mpf(K), mpmath.mpf(n)
        u = nm ** (n - 1) / mpmath.factorial(n - 1)  # j = 0 term
        s = u
        for j in range(n - 1):
            u = u * (Km + j + 1) / (j + 1) * (n - 1 - j) / nm
            s += u
        return mpmath.log(mpmath.factorial(n) / nm**n * Km / nm * s)


def qnml_large_k(df, child, parents, arity):
    """qNML when every variable has ``arity`` declared states (regret by Lagrange inversion)."""
    n = len(df)

    def code(variables):
        if not variables:
            return 0.0
        freq = Counter(df[list(variables)].itertuples(index=False))
        ml = sum(c * math.log(c / n) for c in freq.values())
        return ml - float(log_regret_lagrange(arity ** len(variables), n))

    return code([*parents, child]) - code(list(parents))


def max_bdeu_limit_mp(df, child, parents, eps, state_names=None):
    """Limit of Max-BDeu as the ESS grows: per row, the log-likelihood maximized over the
    prior means of the contaminated set, max sum_k N_k log p_k over
    {p : sum p = 1, (1-eps)/r <= p_k <= eps + (1-eps)/r}.

    KKT: p_k = clip(N_k / lam, lo, hi) (lo for N_k = 0); sum p = 1 by bisection on lam.
    """
    table = counts(df, child, parents, state_names)
    r = len(next(iter(table.values())))
    eps = mpmath.mpf(eps)
    lo, hi = (1 - eps) / r, eps + (1 - eps) / r
    total = mpmath.mpf(0)
    for row in table.values():
        if not sum(row):
            continue

        def p_of(lam, row=row):
            return [min(max(mpmath.mpf(x) / lam, lo), hi) if x else lo for x in row]

        # sum p(lam) decreases from >= 1 (lam -> 0) to 1 - eps (lam = N / lo) or 1 (lam = N)
        a, b = mpmath.mpf(0), mpmath.mpf(sum(row)) / (lo if lo > 0 else 1)
        for _ in range(200):
            mid = (a + b) / 2
            a, b = (mid, b) if mpmath.fsum(p_of(mid)) > 1 else (a, mid)
        p = p_of((a + b) / 2)
        total += mpmath.fsum(x * mpmath.log(pk) for x, pk in zip(row, p, strict=True) if x)
    return total


# -- incomplete data: every completion of a row, enumerated -----------------------------
def joint_probability(model, assignment):
    """P(x) of a full assignment {variable: state}: the product of the CPD entries, read
    from each CPD's own array (its variable order and state names)."""
    p = 1.0
    for cpd in model.get_cpds():
        cell = tuple(cpd.state_names[u].index(assignment[u]) for u in cpd.variables)
        p *= float(cpd.values[cell])
    return p


def is_missing(value):
    return value is None or (isinstance(value, float) and math.isnan(value))


def completions(model, row):
    """[(completion of the missing cells {variable: state}, P(observed + completion))] for
    every completion of ``row`` ({variable: state or NaN/None}), in state order."""
    missing = [v for v in model.nodes() if is_missing(row[v])]
    states = [model.get_cpds(v).state_names[v] for v in missing]
    out = []
    for combo in itertools.product(*states):
        full = dict(row)
        full.update(zip(missing, combo, strict=True))
        out.append((dict(zip(missing, combo, strict=True)), joint_probability(model, full)))
    return out


def observed_log_likelihood(model, data):
    """log P(observed cells) of each row of ``data``: log of the sum over its completions."""
    out = []
    for row in data.to_dict("records"):
        total = sum(p for _, p in completions(model, row))
        out.append(math.log(total) if total > 0 else -math.inf)
    return np.array(out)


def expected_family_counts(model, data, child):
    """{(child state, parent states...): E[count | observed cells]} over the rows of
    ``data``, the parents in the CPD's order."""
    cpd = model.get_cpds(child)
    out = Counter()
    for row in data.to_dict("records"):
        comps = completions(model, row)
        total = sum(p for _, p in comps)
        for completion, p in comps:
            full = {**row, **completion}
            out[tuple(full[u] for u in cpd.variables)] += p / total
    return out
