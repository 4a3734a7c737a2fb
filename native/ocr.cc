// libtesseract in-process for Tablemill's native OCR engine (src/extract/raster/ocr-addon.ts).
// One Engine holds one TessBaseAPI with its model loaded once; recognize() runs on libuv's
// thread pool and returns Tesseract's TSV, the same text the `tesseract` program prints, so
// every engine shares one parser. Calls on one Engine must not overlap (the caller queues them).
#include <napi.h>
#include <tesseract/baseapi.h>
#include <leptonica/allheaders.h>
#include <tesseract/ocrclass.h>
#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

// libtesseract's OpenMP regions, run in the calling thread. Debian's libtesseract is built with
// OpenMP: LSTM::Forward opens a parallel region for every time step of every line, and with one
// thread (OMP_THREAD_LIMIT=1, our policy: one document per core) libgomp still builds a team,
// waits on its barrier and wakes it with a futex call each time — 20 % of the CPU of a page's
// recognition on the ICDAR bench pages (perf: libgomp and the kernel's syscall path), the same
// words. These definitions carry libgomp's symbol versions (gomp.map), and an addon comes before
// its own dependencies in their lookup scope, so libtesseract loaded by this addon binds to them;
// other libraries in the process (onnxruntime) keep libgomp. openmpRegions() counts the regions
// run here, so a test can tell that the binding took.
namespace {
std::atomic<unsigned long> g_openmp_regions{0};
thread_local unsigned t_section_next = 0, t_section_count = 0;
}  // namespace

extern "C" {
__attribute__((visibility("default"))) void GOMP_parallel(void (*fn)(void*), void* data, unsigned, unsigned) {
  g_openmp_regions.fetch_add(1, std::memory_order_relaxed);
  fn(data);
}
// `#pragma omp parallel sections`: the outlined body asks GOMP_sections_next for section 1, 2, …
// until it answers 0; one thread runs them all, in order. Saved and restored for nesting.
__attribute__((visibility("default"))) void GOMP_parallel_sections(void (*fn)(void*), void* data, unsigned, unsigned count, unsigned) {
  g_openmp_regions.fetch_add(1, std::memory_order_relaxed);
  const unsigned next = t_section_next, total = t_section_count;
  t_section_next = 1;
  t_section_count = count;
  fn(data);
  t_section_next = next;
  t_section_count = total;
}
__attribute__((visibility("default"))) unsigned GOMP_sections_next(void) {
  return t_section_next <= t_section_count ? t_section_next++ : 0;
}
__attribute__((visibility("default"))) void GOMP_sections_end_nowait(void) {}
__attribute__((visibility("default"))) int omp_get_num_threads(void) { return 1; }
__attribute__((visibility("default"))) int omp_get_thread_num(void) { return 0; }
}

namespace {

// Bumped by cancelAll(): every recognition that started before stops at its next word.
std::atomic<unsigned> g_cancel_epoch{0};

// The TSV of GetTSVText, for text written left to right, without its cost: GetTSVText walks
// the words symbol by symbol with a ResultIterator, which works out the reading order of the
// whole text line at every step (quadratic in the words of a line; 4 % of a page's recognition
// on the ICDAR pages). For left-to-right text that order is the layout's own, so this walks the
// words with PageIterator's steps and reads each word whole. Same rows, same numbers.
void AddBox(tesseract::ResultIterator* it, tesseract::PageIteratorLevel level, std::string& out) {
  int left = 0, top = 0, right = 0, bottom = 0;
  it->BoundingBox(level, &left, &top, &right, &bottom);
  out += "\t" + std::to_string(left) + "\t" + std::to_string(top) + "\t" + std::to_string(right - left) + "\t" +
         std::to_string(bottom - top);
}

std::string LeftToRightTsv(tesseract::TessBaseAPI* api, int page_number, int image_w, int image_h) {
  using tesseract::PageIterator;
  const std::string page = std::to_string(page_number + 1);
  int block = 0, par = 0, line = 0, word = 0;
  std::string out = "1\t" + page + "\t0\t0\t0\t0\t0\t0\t" + std::to_string(image_w) + "\t" + std::to_string(image_h) + "\t-1\t\n";
  std::unique_ptr<tesseract::ResultIterator> it(api->GetIterator());
  if (!it) return out;
  while (!it->Empty(tesseract::RIL_BLOCK)) {
    if (it->Empty(tesseract::RIL_WORD)) {
      it->PageIterator::Next(tesseract::RIL_WORD);
      continue;
    }
    if (it->PageIterator::IsAtBeginningOf(tesseract::RIL_BLOCK)) {
      block++, par = 0, line = 0, word = 0;
      out += "2\t" + page + "\t" + std::to_string(block) + "\t0\t0\t0";
      AddBox(it.get(), tesseract::RIL_BLOCK, out);
      out += "\t-1\t\n";
    }
    if (it->PageIterator::IsAtBeginningOf(tesseract::RIL_PARA)) {
      par++, line = 0, word = 0;
      out += "3\t" + page + "\t" + std::to_string(block) + "\t" + std::to_string(par) + "\t0\t0";
      AddBox(it.get(), tesseract::RIL_PARA, out);
      out += "\t-1\t\n";
    }
    if (it->PageIterator::IsAtBeginningOf(tesseract::RIL_TEXTLINE)) {
      line++, word = 0;
      out += "4\t" + page + "\t" + std::to_string(block) + "\t" + std::to_string(par) + "\t" + std::to_string(line) + "\t0";
      AddBox(it.get(), tesseract::RIL_TEXTLINE, out);
      out += "\t-1\t\n";
    }
    word++;
    out += "5\t" + page + "\t" + std::to_string(block) + "\t" + std::to_string(par) + "\t" + std::to_string(line) + "\t" +
           std::to_string(word);
    AddBox(it.get(), tesseract::RIL_WORD, out);
    out += "\t" + std::to_string(it->LTRResultIterator::Confidence(tesseract::RIL_WORD)) + "\t";
    std::unique_ptr<char[]> text(it->LTRResultIterator::GetUTF8Text(tesseract::RIL_WORD));
    if (text) out += text.get();
    out += "\n";
    it->PageIterator::Next(tesseract::RIL_WORD);
  }
  return out;
}

// Tesseract languages (and script models) written right to left: they need GetTSVText's reading
// order, not LeftToRightTsv's.
bool WrittenRightToLeft(const std::string& lang) {
  static const char* const kLanguages[] = {"ara", "ckb", "div", "fas", "heb", "pus", "snd", "syr", "uig", "urd", "yid"};
  static const char* const kScripts[] = {"script/Arabic", "script/Hebrew", "script/Syriac", "script/Thaana"};
  for (const char* l : kLanguages)
    if (lang == l) return true;
  for (const char* s : kScripts)
    if (lang == s) return true;
  return false;
}

class Engine : public Napi::ObjectWrap<Engine> {
 public:
  static Napi::Object Init(Napi::Env env, Napi::Object exports) {
    Napi::Function fn = DefineClass(env, "Engine", {
        InstanceMethod("recognize", &Engine::Recognize),
        InstanceMethod("end", &Engine::End),
    });
    exports.Set("Engine", fn);
    exports.Set("cancelAll", Napi::Function::New(env, [](const Napi::CallbackInfo& info) {
      g_cancel_epoch++;
      return info.Env().Undefined();
    }));
    exports.Set("version", Napi::String::New(env, tesseract::TessBaseAPI::Version()));
    exports.Set("openmpRegions", Napi::Function::New(env, [](const Napi::CallbackInfo& info) {
      return Napi::Number::New(info.Env(), static_cast<double>(g_openmp_regions.load()));
    }));
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
    api_ = std::make_shared<tesseract::TessBaseAPI>();
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
      if (WrittenRightToLeft(lang)) ltr_ = false;
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
  // One recognition, written against the plain Node-API C calls rather than Napi::AsyncWorker:
  // when the document's time limit terminates the worker thread mid-recognition, the job still
  // completes on a dying environment, every napi_* call there fails, and node-addon-api turns
  // such a failure into a C++ exception that nothing can catch (the process aborted). Here the
  // failures are ignored, and the job holds its own reference to the TessBaseAPI, so the engine
  // being finalised with its thread does not free the model under a running recognition.
  struct Job {
    std::shared_ptr<tesseract::TessBaseAPI> api;
    napi_ref keep = nullptr;  // the pixel buffer, alive until the job completes
    napi_deferred deferred = nullptr;
    napi_async_work work = nullptr;
    const uint8_t* px;
    int w, h, dpi, psm, page;
    int deadline_ms;  // > 0: stop once this long has passed
    bool binary;
    bool ltr;  // every language is written left to right: LeftToRightTsv gives GetTSVText's rows
    unsigned epoch;
    std::string tsv, error;

    // Tesseract asks after each word whether to go on. A thread terminated for the document's
    // time limit waits for its recognitions to end, so they must end by that limit (the
    // deadline) or when the service shuts down (cancelAll), not after the whole page.
    static bool Cancelled(void* self, int) { return g_cancel_epoch.load() != static_cast<Job*>(self)->epoch; }

    void Execute() {
      api->SetPageSegMode(static_cast<tesseract::PageSegMode>(psm));
      if (binary) {
        if (!SetBinary()) {
          error = "out of memory for a " + std::to_string(w) + "x" + std::to_string(h) + " image";
          return;
        }
      } else {
        // Grey pixels: Tesseract thresholds them itself (Otsu), as the program does a PGM file.
        api->SetImage(px, w, h, 1, w);
      }
      api->SetSourceResolution(dpi);
      tesseract::ETEXT_DESC monitor;
      monitor.cancel = &Job::Cancelled;
      monitor.cancel_this = this;
      if (deadline_ms > 0) monitor.set_deadline_msecs(deadline_ms);
      const int rc = api->Recognize(&monitor);
      if (rc != 0 || monitor.deadline_exceeded() || Cancelled(this, 0)) {
        api->Clear();
        error = monitor.deadline_exceeded() ? "the recognition ran past the document's time limit"
                : Cancelled(this, 0)       ? "the recognition was cancelled (the service is stopping)"
                                           : "tesseract could not recognise the image";
        return;
      }
      if (ltr) {
        tsv = LeftToRightTsv(api.get(), page, w, h);
      } else {
        char* text = api->GetTSVText(page);
        if (text) {
          tsv = text;
          delete[] text;
        }
      }
      api->Clear();
    }

    // A 1-bit Pix (leptonica: 1 = ink): Tesseract takes it as its binary image and skips its own
    // thresholding; the page we send is already our black-and-white binarisation.
    bool SetBinary() {
      Pix* pix = pixCreate(w, h, 1);
      if (!pix) return false;
      l_uint32* data = pixGetData(pix);
      const int wpl = pixGetWpl(pix);
      for (int y = 0; y < h; y++) {
        const uint8_t* row = px + static_cast<size_t>(y) * w;
        l_uint32* line = data + static_cast<size_t>(y) * wpl;
        for (int x = 0; x < w; x++)
          if (row[x] < 128) line[x >> 5] |= 0x80000000u >> (x & 31);
      }
      api->SetImage(pix);  // Tesseract keeps its own copy
      pixDestroy(&pix);
      return true;
    }

    static void OnExecute(napi_env, void* data) { static_cast<Job*>(data)->Execute(); }

    // Runs on the JS thread, also when the environment is going away: nothing here may throw.
    static void OnComplete(napi_env env, napi_status status, void* data) {
      std::unique_ptr<Job> job(static_cast<Job*>(data));
      napi_handle_scope scope = nullptr;
      const bool scoped = napi_open_handle_scope(env, &scope) == napi_ok;
      napi_value value = nullptr;
      if (status == napi_ok && job->error.empty()) {
        if (napi_create_string_utf8(env, job->tsv.data(), job->tsv.size(), &value) == napi_ok)
          napi_resolve_deferred(env, job->deferred, value);
      } else {
        napi_value msg = nullptr;
        const std::string text = status == napi_ok ? job->error : "the recognition was cancelled";
        if (napi_create_string_utf8(env, text.data(), text.size(), &msg) == napi_ok &&
            napi_create_error(env, nullptr, msg, &value) == napi_ok)
          napi_reject_deferred(env, job->deferred, value);
      }
      if (job->keep) napi_delete_reference(env, job->keep);
      napi_delete_async_work(env, job->work);
      if (scoped) napi_close_handle_scope(env, scope);
    }
  };

  // recognize(gray: Uint8Array, width, height, dpi, psm, page, binary[, deadlineMs]) →
  // Promise<string>: TSV, whose page_num column is page + 1; binary: the pixels are black and
  // white (0 or 255); deadlineMs > 0: reject once that long has passed.
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
    auto job = std::make_unique<Job>();
    job->api = api_;
    job->px = px.Data();
    job->w = w;
    job->h = h;
    job->dpi = info[3].As<Napi::Number>().Int32Value();
    job->psm = info[4].As<Napi::Number>().Int32Value();
    job->page = info[5].As<Napi::Number>().Int32Value();
    job->binary = info[6].ToBoolean().Value();
    job->ltr = ltr_;
    job->deadline_ms = info.Length() > 7 && info[7].IsNumber() ? std::max(1, info[7].As<Napi::Number>().Int32Value()) : 0;
    job->epoch = g_cancel_epoch.load();
    napi_value promise = nullptr, name = nullptr;
    if (napi_create_reference(env, px, 1, &job->keep) != napi_ok ||
        napi_create_promise(env, &job->deferred, &promise) != napi_ok ||
        napi_create_string_utf8(env, "tablemill_ocr", NAPI_AUTO_LENGTH, &name) != napi_ok ||
        napi_create_async_work(env, nullptr, name, Job::OnExecute, Job::OnComplete, job.get(), &job->work) != napi_ok ||
        napi_queue_async_work(env, job->work) != napi_ok) {
      if (job->work) napi_delete_async_work(env, job->work);
      if (job->keep) napi_delete_reference(env, job->keep);
      Napi::Error::New(env, "could not start the recognition").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    job.release();  // OnComplete owns it now
    return Napi::Value(env, promise);
  }

  // Frees the model now if no recognition holds it, else when the last one completes.
  Napi::Value End(const Napi::CallbackInfo& info) {
    api_.reset();
    return info.Env().Undefined();
  }

  std::shared_ptr<tesseract::TessBaseAPI> api_;
  bool ltr_ = true;
};

Napi::Object InitAll(Napi::Env env, Napi::Object exports) {
  // Leptonica reports recoverable conditions of Tesseract's own calls (a box clipped to the
  // page, an empty region) on stderr; they are not errors of the document, so they stay quiet.
  setMsgSeverity(L_SEVERITY_NONE);
  return Engine::Init(env, exports);
}

}  // namespace

NODE_API_MODULE(tablemill_ocr, InitAll)
