// Number formats of weights, activations and KV cache, with the bytes their scales add.
#pragma once
#include <string>
#include <vector>

namespace slo {

enum class DType { BF16, FP16, FP8, INT8, INT4, NVFP4, MXFP4, FP4 };

const char* dtype_name(DType t);           // "bf16", "fp8", ...
bool parse_dtype(const std::string& s, DType& out);
int dtype_bits(DType t);

struct Precision {
  DType weights = DType::FP8;
  DType activations = DType::FP8;  // GEMM input precision
  DType kv_cache = DType::BF16;
  int group_size = 128;            // INT4/INT8 scale group; FP8 block edge (block = group x group)
  bool fp8_block_scales = true;    // FP8 weights with a scale per block (DeepSeek-style); false: per tensor/channel
  // Components kept in BF16 whatever `weights` says.
  bool hp_embedding = true, hp_lm_head = true, hp_router = true, hp_norms = true, hp_attention = false;

  std::string scheme_name() const;  // "w4a8c8", "fp8 (w8a8, bf16 KV)", ...
};

// Stored bytes per weight element including its scales.
// Source: DeepSeek-V3 FP8 (128x128 blocks, one FP32 scale each); GPTQ/AWQ-style INT4 with one BF16
// scale per group; NVFP4 = E2M1 + one FP8 scale per 16; MXFP4 = E2M1 + one E8M0 scale per 32 (OCP MX spec).
double weight_bytes(DType t, int group_size);

// Compute format of a GEMM with these weights and activations: weight-only quantization
// dequantizes to the activation format. Returns false (with the reason) for pairs no kernel runs.
bool gemm_dtype(DType weights, DType activations, DType& out, std::string& why_en, std::string& why_zh);

// INT4/INT8/FP8 weights with 16-bit activations: a mixed-precision (Marlin-class) kernel dequantizes
// the weights inside the GEMM. MXFP4/NVFP4 weights are not counted (their kernels differ by GPU).
bool weight_only_int(const Precision& p);

}  // namespace slo
