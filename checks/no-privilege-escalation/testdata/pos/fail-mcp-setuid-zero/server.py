import os

os.setuid(0)  # want: finding
