# No root marker above this file in the test copy: single-file mode.
variable "v" {
  type    = bool
  default = "maybe"
}
