from compliance.cli import main

main()
