import pytest

from server import client


def test_rejects_metadata_address():
    with pytest.raises(ValueError):
        client(
            url='http://169.254.169.254',
            token='caller-token',
        )
