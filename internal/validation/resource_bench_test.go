package validation_test

import "testing"

func BenchmarkValidateDeviceClass(b *testing.B)           { benchmarkWrite(b, deviceClassGPU) }
func BenchmarkValidateResourceClaimTemplate(b *testing.B) { benchmarkWrite(b, claimTemplatePair) }
func BenchmarkValidateResourceClaim(b *testing.B)         { benchmarkWrite(b, claimTrainer) }
func BenchmarkValidateResourceSlice(b *testing.B)         { benchmarkWrite(b, sliceNode1) }
func BenchmarkValidateDeviceTaintRule(b *testing.B)       { benchmarkWrite(b, taintRuleDrain) }
