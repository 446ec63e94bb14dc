# The public names of pgmpy_nml.scores: the one list, read by ``lazy_loader.attach_stub``
# in ``__init__.py`` (as the package's top level). The score classes load on first use:
# the registry (the command line's --help lists its names) must not import pgmpy.
from ._base import DiscreteScore as DiscreteScore
from .bd import BDConstant as BDConstant
from .bd import BDeu as BDeu
from .bdeu_bounds import MaxBDeu as MaxBDeu
from .bdeu_bounds import MinBDeu as MinBDeu
from .bdeu_bounds import bdeu_sensitivity as bdeu_sensitivity
from .contract import StatisticScore as StatisticScore
from .fnml import FNML as FNML
from .qnml import QNML as QNML
from .registry import ScoreSpec as ScoreSpec
from .registry import get_score_spec as get_score_spec
from .registry import make_score as make_score
from .registry import register_score as register_score
from .registry import resolve_score as resolve_score
from .registry import score_names as score_names
from .registry import spec_for_score as spec_for_score
from .registry import unregister_score as unregister_score
