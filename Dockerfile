# Tablemill on Debian with the packages .ci/run installs (poppler, tesseract and its languages,
# the libtesseract headers for the in-process OCR addon). One image for API and worker:
#   docker run -e DATABASE_URL=… -e TABLEMILL_BLOBS=s3://… IMAGE serve --no-workers
#   docker run -e DATABASE_URL=… -e TABLEMILL_BLOBS=s3://… IMAGE worker
FROM node:20-bookworm-slim AS build
RUN apt-get update -q && apt-get install -y -q --no-install-recommends \
      g++ make pkg-config python3 libtesseract-dev libleptonica-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/tablemill
COPY package.json package-lock.json .npmrc* ./
COPY scripts ./scripts
COPY native ./native
RUN npm ci --no-audit --no-fund --ignore-scripts && node scripts/build-native.js && npm rebuild better-sqlite3
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
RUN apt-get update -q && apt-get install -y -q --no-install-recommends \
      poppler-utils tesseract-ocr tesseract-ocr-osd tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa \
      tesseract-ocr-nld tesseract-ocr-ita tesseract-ocr-por tesseract-ocr-jpn tesseract-ocr-chi-sim \
      libtesseract5 liblept5 \
    && rm -rf /var/lib/apt/lists/* && useradd --system --home /var/lib/tablemill tablemill \
    && mkdir -p /var/lib/tablemill && chown tablemill /var/lib/tablemill
WORKDIR /opt/tablemill
COPY --from=build /opt/tablemill ./
USER tablemill
ENV HOST=0.0.0.0 PORT=8080 TABLEMILL_DATA_DIR=/var/lib/tablemill
EXPOSE 8080
ENTRYPOINT ["node", "bin/tablemill"]
CMD ["serve"]
