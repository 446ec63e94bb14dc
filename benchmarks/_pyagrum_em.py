"""pyAgrum's EM for a fixed structure, run in pyAgrum's own virtual environment.

Not part of the package and never imported by it: ``bench_missing.py --pyagrum PYTHON``
runs this file with that interpreter (a venv where ``pip install pyagrum`` worked)::

    PYTHON _pyagrum_em.py network.bif train.csv learned.bif

``network.bif`` gives the structure and the states; ``train.csv`` has one column per
variable and ``?`` for a missing cell. pyAgrum's ``BNLearner`` learns the parameters of
that structure by EM (``useEM``, relative tolerance 1e-6 on the log-likelihood) with a
smoothing prior of weight 1 per cell (as Laplace: pyAgrum needs a prior to keep
unobserved configurations defined), and the network is saved as BIF for the benchmark
to evaluate with the package's ``log_loss``. The CPU seconds spent learning are printed.
"""

import sys
import time

import pyagrum as gum


def main() -> None:
    network, train, out = sys.argv[1:4]
    bn = gum.loadBN(network)
    cpu = time.process_time()
    learner = gum.BNLearner(train, bn, ["?"])
    learner.useSmoothingPrior(1.0)
    learner.useEM(1e-6)
    learned = learner.learnParameters(bn.dag())
    print(f"cpu {time.process_time() - cpu:.3f}")
    gum.saveBN(learned, out)


if __name__ == "__main__":
    main()
