{{/* The chart's name. */}}
{{- define "tenon.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The full name of the release's objects. */}}
{{- define "tenon.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains (include "tenon.name" .) .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "tenon.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/* Labels that select the controller's pods. */}}
{{- define "tenon.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tenon.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of every object. */}}
{{- define "tenon.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "tenon.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.additionalLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* The ServiceAccount the pods run as. */}}
{{- define "tenon.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "tenon.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The controller's image reference: repository:tag, or repository@digest when a digest is pinned. */}}
{{- define "tenon.image" -}}
{{- $img := .Values.controller.image }}
{{- if $img.digest }}
{{- printf "%s@%s" $img.repository $img.digest }}
{{- else }}
{{- printf "%s:%s" $img.repository (default .Chart.AppVersion $img.tag) }}
{{- end }}
{{- end }}

{{/* FEATURE_GATES as Karpenter writes it. */}}
{{- define "tenon.featureGates" -}}
{{- $g := .Values.settings.featureGates -}}
{{- printf "SpotToSpotConsolidation=%t,NodeRepair=%t,ReservedCapacity=%t,StaticCapacity=%t" $g.spotToSpotConsolidation $g.nodeRepair $g.reservedCapacity $g.staticCapacity }}
{{- end }}
