import pytest
import urllib.request


def test_metadata_unreachable():
    with pytest.raises(Exception):
        urllib.request.urlopen("http://169.254.169.254/latest/meta-data/iam/")  # want: finding
