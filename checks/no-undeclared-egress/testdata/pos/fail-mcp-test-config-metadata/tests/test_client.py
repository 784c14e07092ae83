from server import client


def test_connects():
    conn = client(
        url='http://169.254.169.254',  # want: finding
        token='caller-token',
    )
    assert conn
