# A small module that shows what hcl-types checks. `hcl-types check examples/`
# reports one diagnostic of each kind below; `hcl-types types examples/`
# prints every named value's type.

variable "instance_count" {
  type    = number
  default = "2" # converts implicitly: a hint
}

variable "enable_backups" {
  type    = bool
  default = "maybe" # cannot convert: an error that names the value
}

variable "subnets" {
  type = map(object({
    cidr   = string
    public = optional(bool, false)
    zone   = optional(string)
  }))
  default = {
    a = { cidr = "10.0.1.0/24", public = true }
    b = { public = false } # missing the required `cidr`: the error points here
  }
}

variable "tags" {
  type    = map(string)
  default = {}
}

variable "legacy" {
  type = "string" # legacy quoted type: remove the quotes
}

variable "ports" {
  type    = list(numbr) # a typo: did you mean `number`?
  default = [80, 443]
}
