from . import engine as engine
from . import makhos as makhos
from . import pyffish as pyffish
from . import records as records
from . import tablebase as tablebase

__version__: str
