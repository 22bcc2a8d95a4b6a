# A Pulumi PCL program: configs, resources (outputs), invokes (promises).

config "siteName" "string" {
  default = "example"
}

config "replicas" "int" {
  default = 2.5 # an int cannot be fractional
}

config "apiKey" "string" {
  secret = true
}

config "settings" "object({name=string, ports=list(int)})" {
  default = { name = "web" }
}

resource "bucket" "aws:s3:Bucket" {
  website = {
    indexDocument = "index.html"
  }
}

zones = invoke("aws:index:getAvailabilityZones", {})

# A conditional of an output and a promise: an output of the unified type.
endpoint = replicas > 1 ? bucket.websiteEndpoint : zones.names[0]

greeting = "Hello from ${siteName} (${apiKey})"

output "endpoint" {
  value = endpoint
}

output "replicaCount" "string" {
  value = [replicas]
}
