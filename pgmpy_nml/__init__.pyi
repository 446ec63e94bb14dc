# The public names of pgmpy_nml: the one list. ``__init__.py`` hands this file to
# ``lazy_loader.attach_stub`` (scientific-python SPEC 1), which makes every name below
# load its module on first use, and builds ``__all__`` and ``dir()`` from it; type
# checkers read it as the package's interface (py.typed). Add a public name here only.
from . import study as study
from ._version import __version__ as __version__
from .analysis.ess import OptimalESS as OptimalESS
from .analysis.ess import optimal_ess as optimal_ess
from .analysis.forest import forest_log_normalizer as forest_log_normalizer
from .analysis.forest import forest_nml as forest_nml
from .analysis.saturation import learning_saturation as learning_saturation
from .estimators import EMEstimator as EMEstimator
from .estimators import FSNMLEstimator as FSNMLEstimator
from .evaluate import fsnml_code_length as fsnml_code_length
from .evaluate import log_loss as log_loss
from .evaluate import n_parameters as n_parameters
from .exceptions import CsvError as CsvError
from .exceptions import ForestCostError as ForestCostError
from .exceptions import InfiniteLossWarning as InfiniteLossWarning
from .exceptions import InputError as InputError
from .exceptions import NetworkFileError as NetworkFileError
from .exceptions import PgmpyNMLError as PgmpyNMLError
from .exceptions import PgmpyNMLWarning as PgmpyNMLWarning
from .exceptions import SearchMemoryError as SearchMemoryError
from .exceptions import UnknownStateError as UnknownStateError
from .models import default_parameter_estimator as default_parameter_estimator
from .scores import FNML as FNML
from .scores import QNML as QNML
from .scores import BDConstant as BDConstant
from .scores import BDeu as BDeu
from .scores import MaxBDeu as MaxBDeu
from .scores import MinBDeu as MinBDeu
from .scores import bdeu_sensitivity as bdeu_sensitivity
from .scores import make_score as make_score
from .scores import score_names as score_names
from .search import ExactSearch as ExactSearch
from .search import LocalSearch as LocalSearch
from .search import learn_exact as learn_exact
from .study import Discretizer as Discretizer
from .study import LearningProcedure as LearningProcedure
from .study import averaged_network as averaged_network
from .study import bootstrap_strength as bootstrap_strength
from .study import compare_procedures as compare_procedures
from .study import compare_structures as compare_structures
from .study import cpdag as cpdag
from .study import cross_validate as cross_validate
from .study import discretize as discretize
from .study import local_scores as local_scores
