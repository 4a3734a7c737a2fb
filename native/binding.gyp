{
  "targets": [
    {
      "target_name": "tablemill_ocr",
      "sources": ["ocr.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")", "<!@(pkg-config --cflags-only-I tesseract lept | sed 's/-I//g')"],
      "libraries": ["<!@(pkg-config --libs tesseract lept)"],
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags_cc!": ["-fno-exceptions"],
      "cflags_cc": ["-std=c++17", "-O2", "-fexceptions"],
      "ldflags": ["-Wl,--version-script=<(module_root_dir)/gomp.map"]
    }
  ]
}
