variable "region" {
  description = "Azure region for resource group."
  type        = string
}
