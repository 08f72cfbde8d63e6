from gateway.app import main

main()
