#include "slo/precision.hpp"

namespace slo {

const char* dtype_name(DType t) {
  switch (t) {
    case DType::BF16: return "bf16";
    case DType::FP16: return "fp16";
    case DType::FP8: return "fp8";
    case DType::INT8: return "int8";
    case DType::INT4: return "int4";
    case DType::NVFP4: return "nvfp4";
    case DType::MXFP4: return "mxfp4";
    case DType::FP4: return "fp4";
  }
  return "bf16";
}

bool parse_dtype(const std::string& s, DType& out) {
  static const std::pair<const char*, DType> names[] = {
      {"bf16", DType::BF16}, {"fp16", DType::FP16},   {"fp8", DType::FP8},     {"int8", DType::INT8},
      {"int4", DType::INT4}, {"nvfp4", DType::NVFP4}, {"mxfp4", DType::MXFP4}, {"fp4", DType::FP4}};
  for (const auto& n : names)
    if (s == n.first) {
      out = n.second;
      return true;
    }
  return false;
}

int dtype_bits(DType t) {
  switch (t) {
    case DType::BF16:
    case DType::FP16: return 16;
    case DType::FP8:
    case DType::INT8: return 8;
    default: return 4;
  }
}

double weight_bytes(DType t, int g) {
  switch (t) {
    case DType::BF16:
    case DType::FP16: return 2.0;
    // FP8 block quantization: one FP32 scale per g x g block (DeepSeek-V3 weight_block_size 128x128).
    case DType::FP8: return 1.0 + 4.0 / (static_cast<double>(g) * g);
    // INT8 / INT4 group quantization: one BF16 scale per g weights along the input dimension.
    case DType::INT8: return 1.0 + 2.0 / g;
    case DType::INT4: return 0.5 + 2.0 / g;
    // NVFP4: E2M1 values plus one E4M3 scale per 16 (NVIDIA Blackwell NVFP4 format).
    case DType::NVFP4:
    case DType::FP4: return 0.5 + 1.0 / 16.0;
    // MXFP4: E2M1 values plus one E8M0 scale per 32 (OCP Microscaling Formats v1.0).
    case DType::MXFP4: return 0.5 + 1.0 / 32.0;
  }
  return 2.0;
}

bool weight_only_int(const Precision& p) {
  const bool a16 = p.activations == DType::BF16 || p.activations == DType::FP16;
  return a16 && (p.weights == DType::INT4 || p.weights == DType::INT8 || p.weights == DType::FP8);
}

bool gemm_dtype(DType w, DType a, DType& out, std::string& why_en, std::string& why_zh) {
  const bool w16 = w == DType::BF16 || w == DType::FP16;
  const bool w4fp = w == DType::NVFP4 || w == DType::MXFP4 || w == DType::FP4;
  switch (a) {
    case DType::BF16:
    case DType::FP16:
      out = a;  // weight-only quantization (w8a16, w4a16) dequantizes to 16 bits
      return true;
    case DType::FP8:
      if (w == DType::FP8 || w == DType::INT4 || w4fp) {
        out = DType::FP8;
        return true;
      }
      why_en = "FP8 activations need FP8, INT4 or FP4 weights";
      why_zh = "FP8 激活需要 FP8、INT4 或 FP4 权重";
      return false;
    case DType::INT8:
      if (w == DType::INT8 || w == DType::INT4) {
        out = DType::INT8;
        return true;
      }
      why_en = "INT8 activations need INT8 or INT4 weights";
      why_zh = "INT8 激活需要 INT8 或 INT4 权重";
      return false;
    case DType::NVFP4:
    case DType::MXFP4:
    case DType::FP4:
      if (w4fp) {
        out = DType::FP4;
        return true;
      }
      why_en = "FP4 activations need FP4 (NVFP4/MXFP4) weights";
      why_zh = "FP4 激活需要 FP4（NVFP4/MXFP4）权重";
      return false;
    case DType::INT4:
      why_en = "INT4 activations are not supported (use int8, fp8 or bf16)";
      why_zh = "不支持 INT4 激活（请用 int8、fp8 或 bf16）";
      return false;
  }
  (void)w16;
  return false;
}

std::string Precision::scheme_name() const {
  auto bits = [](DType t) { return std::to_string(dtype_bits(t)); };
  std::string s = "w" + bits(weights) + "a" + bits(activations) + "c" + bits(kv_cache);
  return s + " (" + dtype_name(weights) + "/" + dtype_name(activations) + "/" + dtype_name(kv_cache) + ")";
}

}  // namespace slo
