"""What the package's handles on library objects share: close() frees
the object, and a with block or the garbage collector calls it."""


class Closable:
    def close(self):
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        # At interpreter exit the library may be unloaded already.
        try:
            self.close()
        except Exception:
            pass
