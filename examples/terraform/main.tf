locals {
  # A conditional of a number and a string unifies to string.
  label = var.instance_count > 1 ? "many" : 1

  # Exact integers, beyond any float.
  big = 340282366920938463463374607431768211456

  public_subnets = [for name, s in var.subnets : name if s.public]

  # A cycle: each depends on the other.
  ping = local.pong
  pong = local.ping
}

resource "aws_instance" "web" {
  count = var.instance_count

  tags = merge(var.tags, { Zone = var.subnets["a"].zone })

  # local.label is a string: arithmetic on it may fail at run time.
  cpu_core_count = local.label * 2

  # A typo in an attribute of a declared object type.
  subnet_id = var.subnets["a"].cidrr

  # for_each needs a map or a set, not a list.
  dynamic "ebs_block_device" {
    for_each = local.public_subnets
    content {
      device_name = ebs_block_device.value
    }
  }
}

resource "aws_eip" "ip" {
  for_each = local.public_subnets
  instance = aws_instance.web[0].id
}

output "label" {
  value = upper(local.label)
}

output "undeclared" {
  value = var.region
}
