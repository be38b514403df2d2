"""``python -m croupier`` runs the ``croupier`` program."""

from croupier.cli.entry import main

if __name__ == "__main__":
    main()
