print("NetDemo")
