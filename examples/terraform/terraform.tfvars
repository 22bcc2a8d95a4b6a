instance_count = 3
enable_backups = "true"
tags = {
  team = "platform"
  cost = 12
}
regoin = "eu-west-1"
