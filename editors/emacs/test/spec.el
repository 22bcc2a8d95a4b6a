;;; spec.el --- editors/emacs/test/run: hcl-types in real Emacs with eglot  -*- lexical-binding: t; -*-

;; Run by ./run as `emacs --batch -q -l ../hcl-types-eglot.el -l spec.el'
;; in a copy of fixture/, with `hcl-types' first on PATH. Opens main.tf the
;; way a user does (find-file, so auto-mode-alist and the recipe's
;; eglot-ensure hook start the server), waits for the server's diagnostics in
;; flymake, asks for a hover through eglot's own eldoc function, and exits
;; with status 0 only when every check passed.

;;; Code:

(require 'cl-lib)
(require 'eglot)

(defvar spec-failed 0)
(defvar spec-passed 0)
(defconst spec-timeout 30 "Seconds to wait for the server.")

(defun spec-log (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n") #'external-debugging-output))

(defmacro spec-check (name &rest body)
  "Run BODY as the check NAME: it passes unless it signals."
  (declare (indent 1))
  `(condition-case err
       (progn ,@body
              (setq spec-passed (1+ spec-passed))
              (spec-log "ok - %s" ,name))
     (error (setq spec-failed (1+ spec-failed))
            (spec-log "not ok - %s: %s" ,name (error-message-string err)))))

(defun spec-wait (what pred)
  "Process events until PRED returns non-nil (its value), or fail naming WHAT."
  (let ((deadline (+ (float-time) spec-timeout)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or v (error "timed out after %ss waiting for %s" spec-timeout what))))

(defun spec-goto (needle &optional offset)
  "Put point OFFSET characters into the first NEEDLE of the buffer."
  (goto-char (point-min))
  (unless (search-forward needle nil t) (error "no %S in %s" needle (buffer-name)))
  (goto-char (+ (match-beginning 0) (or offset 0))))

(defvar spec-buffer nil)
(defvar spec-server nil)

(spec-check "main.tf opens in terraform-mode and eglot starts hcl-types lsp"
  (setq spec-buffer (find-file (expand-file-name "main.tf" default-directory)))
  (switch-to-buffer spec-buffer)
  (unless (eq major-mode 'terraform-mode) (error "major mode is %s" major-mode))
  ;; eglot-ensure connects from post-command-hook, after the command that
  ;; opened the file; a batch Emacs runs no commands, so run the hook.
  (run-hooks 'post-command-hook)
  (setq spec-server (spec-wait "eglot to manage main.tf"
                               (lambda () (and eglot--managed-mode (eglot-current-server)))))
  (let ((cmd (process-command (jsonrpc--process spec-server))))
    (unless (equal (last cmd) '("lsp")) (error "server command is %S" cmd))
    (unless (string-match-p "hcl-types\\'" (car cmd)) (error "server command is %S" cmd)))
  (let ((info (plist-get (eglot--server-info spec-server) :name)))
    (unless (equal info "hcl-types") (error "serverInfo.name is %S" info))))

(spec-check "the server's diagnostics reach flymake"
  (with-current-buffer spec-buffer
    (let ((diags (spec-wait "a flymake diagnostic on default = \"maybe\""
                            (lambda ()
                              (flymake-start)
                              (cl-remove-if-not
                               (lambda (d) (string-match-p "bool" (flymake-diagnostic-text d)))
                               (flymake-diagnostics))))))
      (spec-goto "\"maybe\"")
      (let ((d (car diags)))
        (unless (eq (flymake-diagnostic-type d) 'eglot-error)
          (error "diagnostic type is %s: %s" (flymake-diagnostic-type d) (flymake-diagnostic-text d)))
        (unless (= (line-number-at-pos (flymake-diagnostic-beg d)) (line-number-at-pos))
          (error "diagnostic on line %d, the default is on line %d: %s"
                 (line-number-at-pos (flymake-diagnostic-beg d)) (line-number-at-pos)
                 (flymake-diagnostic-text d)))
        (spec-log "# diagnostic: %s" (flymake-diagnostic-text d))))))

(spec-check "eglot offers plain-text hovers only (no markdown-mode here)"
  ;; Without markdown-mode's gfm-view-mode, eglot 1.9 declares
  ;; hover.contentFormat ["plaintext"].
  (when (fboundp 'gfm-view-mode) (error "markdown-mode is loaded: this run would not test the plain-text case"))
  (let ((fmt (plist-get (plist-get (plist-get (eglot-client-capabilities spec-server) :textDocument) :hover)
                        :contentFormat)))
    (unless (equal fmt ["plaintext"]) (error "hover.contentFormat is %S" fmt))))

(spec-check "a hover through eldoc shows the conditional's unified type"
  (with-current-buffer spec-buffer
    (spec-goto "var.enable_backups ?" 0)
    (search-forward "?")
    (backward-char)
    ;; What `eldoc' shows: eglot's own hover function and its formatting.
    (let* ((got nil)
           (_ (eglot-hover-eldoc-function (lambda (info &rest _) (setq got (or info 'empty)))))
           (text (spec-wait "the hover" (lambda () got))))
      (when (eq text 'empty) (error "the hover is empty"))
      (spec-log "# hover:\n%s" text)
      ;; The unified type of `cond ? 2 : "none"' is string.
      (unless (string-match-p "\\_<string\\_>" text) (error "the hover does not name the type string: %S" text))
      ;; The client takes plain text only: no Markdown fences (issue 32 item 5).
      (when (string-match-p "```" text) (error "Markdown fences in a plain-text hover: %S" text)))))

(spec-check "the hover's raw contents are plain text, as eglot asked"
  (with-current-buffer spec-buffer
    (let* ((hover (jsonrpc-request spec-server :textDocument/hover (eglot--TextDocumentPositionParams)))
           (contents (plist-get hover :contents)))
      (unless (equal (plist-get contents :kind) "plaintext")
        (error "hover contents are %S" contents)))))

(spec-check "eglot-workspace-configuration reaches the server (invalid-value: warning)"
  ;; As the README's .dir-locals.el example sets it; eglot sends it in
  ;; workspace/didChangeConfiguration (and answers workspace/configuration).
  (with-current-buffer spec-buffer
    (setq-default eglot-workspace-configuration '(:hclTypes (:severity (:invalid-value "warning"))))
    (eglot-signal-didChangeConfiguration spec-server)
    (spec-wait "the bool default's diagnostic to become a warning"
               (lambda ()
                 (flymake-start)
                 (cl-find-if (lambda (d) (and (eq (flymake-diagnostic-type d) 'eglot-warning)
                                              (string-match-p "bool" (flymake-diagnostic-text d))))
                             (flymake-diagnostics))))))

(spec-check "eglot shuts the server down (the shutdown request is answered)"
  ;; eglot-shutdown signals when `shutdown' is not answered within 1.5 s. Then
  ;; it sends `exit', and Emacs 28's jsonrpc deletes the process at once
  ;; (SIGKILL), so the exit status says nothing about the server.
  (let ((proc (jsonrpc--process spec-server)))
    (eglot-shutdown spec-server)
    (spec-wait "the server process to be gone" (lambda () (not (process-live-p proc))))))

(spec-log "%d passed, %d failed" spec-passed spec-failed)
(kill-emacs (if (and (zerop spec-failed) (> spec-passed 0)) 0 1))
;;; spec.el ends here
