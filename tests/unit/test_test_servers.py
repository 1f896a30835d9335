"""The test servers the suite starts: each test talks to its own server, even when another
test's server took the port it picked (the free port is closed before the server binds it)."""

import socket

from tests.helpers.mcp_server import MCPTestServer


def test_a_server_whose_port_was_taken_moves_to_another_and_is_the_one_reached():
    server = MCPTestServer()
    squatter = socket.socket()
    squatter.bind(("127.0.0.1", server.port))
    squatter.listen()  # accepts connections, as another test's server would
    taken = server.port
    try:
        with server:
            assert server.port != taken and f":{server.port}/" in server.url
            assert server.cancelled_calls() == 0  # a route only our server answers
    finally:
        squatter.close()
