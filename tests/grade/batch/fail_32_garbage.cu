this is not CUDA at all
