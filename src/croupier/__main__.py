"""``python -m croupier`` runs the ``croupier`` program."""

from croupier.cli.entry import program

if __name__ == "__main__":
    program()
