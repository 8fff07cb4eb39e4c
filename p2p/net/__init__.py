"""Transport: frames, the secure-channel handshake, channels, the mesh and its redialling."""
