// libtesseract in-process for Tablemill's native OCR engine (src/extract/raster/ocr-addon.ts).
// One Engine holds one TessBaseAPI with its model loaded once; recognize() runs on libuv's
// thread pool and returns Tesseract's TSV, the same text the `tesseract` program prints, so
// every engine shares one parser. Calls on one Engine must not overlap (the caller queues them).
#include <napi.h>
#include <tesseract/baseapi.h>
#include <leptonica/allheaders.h>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace {

class Engine : public Napi::ObjectWrap<Engine> {
 public:
  static Napi::Object Init(Napi::Env env, Napi::Object exports) {
    Napi::Function fn = DefineClass(env, "Engine", {
        InstanceMethod("recognize", &Engine::Recognize),
        InstanceMethod("end", &Engine::End),
    });
    exports.Set("Engine", fn);
    exports.Set("version", Napi::String::New(env, tesseract::TessBaseAPI::Version()));
    return exports;
  }

  // new Engine(langs, params: Record<string,string>, datapath?: string)
  explicit Engine(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Engine>(info) {
    Napi::Env env = info.Env();
    if (info.Length() < 2 || !info[0].IsString() || !info[1].IsObject()) {
      Napi::TypeError::New(env, "Engine(langs, params[, datapath])").ThrowAsJavaScriptException();
      return;
    }
    std::string langs = info[0].As<Napi::String>();
    std::string datapath = info.Length() > 2 && info[2].IsString() ? info[2].As<Napi::String>().Utf8Value() : "";
    api_ = std::make_unique<tesseract::TessBaseAPI>();
    if (api_->Init(datapath.empty() ? nullptr : datapath.c_str(), langs.c_str(), tesseract::OEM_LSTM_ONLY) != 0) {
      api_.reset();
      Napi::Error::New(env, "tesseract could not load the language data for " + langs).ThrowAsJavaScriptException();
      return;
    }
    // Init succeeds when at least one of several languages loads; every one must.
    std::vector<std::string> loaded;
    api_->GetLoadedLanguagesAsVector(&loaded);
    for (size_t start = 0; start <= langs.size();) {
      size_t end = langs.find('+', start);
      if (end == std::string::npos) end = langs.size();
      const std::string lang = langs.substr(start, end - start);
      if (std::find(loaded.begin(), loaded.end(), lang) == loaded.end()) {
        api_.reset();
        Napi::Error::New(env, "tesseract has no language data for " + lang).ThrowAsJavaScriptException();
        return;
      }
      start = end + 1;
    }
    Napi::Object params = info[1].As<Napi::Object>();
    Napi::Array keys = params.GetPropertyNames();
    for (uint32_t i = 0; i < keys.Length(); i++) {
      std::string k = keys.Get(i).As<Napi::String>();
      std::string v = params.Get(k).ToString();
      if (!api_->SetVariable(k.c_str(), v.c_str())) {
        Napi::Error::New(env, "unknown tesseract parameter " + k).ThrowAsJavaScriptException();
        return;
      }
    }
  }

 private:
  class Job : public Napi::AsyncWorker {
   public:
    Job(Napi::Env env, tesseract::TessBaseAPI* api, Napi::Reference<Napi::Uint8Array>&& keep, const uint8_t* px,
        int w, int h, int dpi, int psm, int page, bool binary)
        : Napi::AsyncWorker(env), deferred_(Napi::Promise::Deferred::New(env)), api_(api), keep_(std::move(keep)),
          px_(px), w_(w), h_(h), dpi_(dpi), psm_(psm), page_(page), binary_(binary) {}
    Napi::Promise Promise() { return deferred_.Promise(); }

    void Execute() override {
      api_->SetPageSegMode(static_cast<tesseract::PageSegMode>(psm_));
      if (binary_) {
        if (!SetBinary()) return SetError("out of memory for a " + std::to_string(w_) + "x" + std::to_string(h_) + " image");
      } else {
        // Grey pixels: Tesseract thresholds them itself (Otsu), as the program does a PGM file.
        api_->SetImage(px_, w_, h_, 1, w_);
      }
      api_->SetSourceResolution(dpi_);
      const int rc = api_->Recognize(nullptr);
      if (rc != 0) {
        api_->Clear();
        return SetError("tesseract could not recognise the image");
      }
      char* tsv = api_->GetTSVText(page_);
      if (tsv) {
        tsv_ = tsv;
        delete[] tsv;
      }
      api_->Clear();
    }

    // A 1-bit Pix (leptonica: 1 = ink): Tesseract takes it as its binary image and skips its own
    // thresholding; the page we send is already our black-and-white binarisation.
    bool SetBinary() {
      Pix* pix = pixCreate(w_, h_, 1);
      if (!pix) return false;
      l_uint32* data = pixGetData(pix);
      const int wpl = pixGetWpl(pix);
      for (int y = 0; y < h_; y++) {
        const uint8_t* row = px_ + static_cast<size_t>(y) * w_;
        l_uint32* line = data + static_cast<size_t>(y) * wpl;
        for (int x = 0; x < w_; x++)
          if (row[x] < 128) line[x >> 5] |= 0x80000000u >> (x & 31);
      }
      api_->SetImage(pix);  // Tesseract keeps its own copy
      pixDestroy(&pix);
      return true;
    }
    void OnOK() override {
      keep_.Reset();
      deferred_.Resolve(Napi::String::New(Env(), tsv_));
    }
    void OnError(const Napi::Error& e) override {
      keep_.Reset();
      deferred_.Reject(e.Value());
    }

   private:
    Napi::Promise::Deferred deferred_;
    tesseract::TessBaseAPI* api_;
    Napi::Reference<Napi::Uint8Array> keep_;
    const uint8_t* px_;
    int w_, h_, dpi_, psm_, page_;
    bool binary_;
    std::string tsv_;
  };

  // recognize(gray: Uint8Array, width, height, dpi, psm, page, binary) → Promise<string>: TSV,
  // whose page_num column is page + 1; binary: the pixels are black and white (0 or 255).
  Napi::Value Recognize(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (!api_) {
      Napi::Error::New(env, "the OCR engine has ended").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    if (info.Length() < 7 || !info[0].IsTypedArray()) {
      Napi::TypeError::New(env, "recognize(gray, width, height, dpi, psm, page, binary)").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    Napi::Uint8Array px = info[0].As<Napi::Uint8Array>();
    const int w = info[1].As<Napi::Number>().Int32Value();
    const int h = info[2].As<Napi::Number>().Int32Value();
    if (w <= 0 || h <= 0 || px.ByteLength() < static_cast<size_t>(w) * h) {
      Napi::RangeError::New(env, "the pixel buffer is smaller than width x height").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    auto* job = new Job(env, api_.get(), Napi::Persistent(px), px.Data(), w, h, info[3].As<Napi::Number>().Int32Value(),
                        info[4].As<Napi::Number>().Int32Value(), info[5].As<Napi::Number>().Int32Value(), info[6].ToBoolean().Value());
    Napi::Promise p = job->Promise();
    job->Queue();
    return p;
  }

  Napi::Value End(const Napi::CallbackInfo& info) {
    if (api_) api_->End();
    api_.reset();
    return info.Env().Undefined();
  }

  std::unique_ptr<tesseract::TessBaseAPI> api_;
};

Napi::Object InitAll(Napi::Env env, Napi::Object exports) { return Engine::Init(env, exports); }

}  // namespace

NODE_API_MODULE(tablemill_ocr, InitAll)
